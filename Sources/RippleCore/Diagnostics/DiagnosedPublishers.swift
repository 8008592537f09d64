// How `RippleDiagnostics` sees into Ripple's class publishers: the ones whose upstreams are
// constants, and the subjects, whose identity is their storage. Declared above the publishers they
// name, so that the recording (Core/DiagnosticsRecording.swift), which asks for these protocols
// at run time, names none of them.

extension Publishers.Share: DiagnosticUpstreams {
    var diagnosticUpstreams: [Any] { [upstream] }
}

extension Publishers.Multicast: DiagnosticUpstreams {
    var diagnosticUpstreams: [Any] { [upstream] }
}

extension Publishers.Autoconnect: DiagnosticUpstreams {
    var diagnosticUpstreams: [Any] { [upstream] }
}

extension PassthroughSubject: DiagnosticSource {
    var diagnosticIdentity: ObjectIdentifier { ObjectIdentifier(core) }
}

extension CurrentValueSubject: DiagnosticSource {
    var diagnosticIdentity: ObjectIdentifier { ObjectIdentifier(core) }
}

extension ObservableObjectPublisher: DiagnosticSource {
    var diagnosticIdentity: ObjectIdentifier { ObjectIdentifier(core) }
}
