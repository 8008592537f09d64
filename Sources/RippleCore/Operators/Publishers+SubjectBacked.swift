// `sink` straight to the subject for the stateless operators over one (`_SubjectBacked`, declared
// with the subject-backed `sink` in Subscribers/SubjectBackedSink.swift).

extension Publishers.Map: _SubjectBacked where Upstream: _SubjectBacked {
    /// Attaches the transform and `receiveValue` to the subject behind `upstream`.
    @inlinable
    public func _attachSink(
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let transform = self.transform
        return upstream._attachSink(receiveCompletion: receiveCompletion) { receiveValue(transform($0)) }
    }
}

extension Publishers.Filter: _SubjectBacked where Upstream: _SubjectBacked {
    /// Attaches the predicate and `receiveValue` to the subject behind `upstream`.
    @inlinable
    public func _attachSink(
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let isIncluded = self.isIncluded
        return upstream._attachSink(receiveCompletion: receiveCompletion) { value in
            if isIncluded(value) { receiveValue(value) }
        }
    }
}

extension Publishers.CompactMap: _SubjectBacked where Upstream: _SubjectBacked {
    /// Attaches the transform and `receiveValue` to the subject behind `upstream`.
    @inlinable
    public func _attachSink(
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let transform = self.transform
        return upstream._attachSink(receiveCompletion: receiveCompletion) { value in
            if let output = transform(value) { receiveValue(output) }
        }
    }
}

extension Publishers.MapKeyPath: _SubjectBacked where Upstream: _SubjectBacked {
    /// Attaches the key-path read and `receiveValue` to the subject behind `upstream`.
    @inlinable
    public func _attachSink(
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let keyPath = self.keyPath
        return upstream._attachSink(receiveCompletion: receiveCompletion) { receiveValue($0[keyPath: keyPath]) }
    }
}
