// Ripple: Combine's API (RippleCore, re-exported whole) plus Ripple's own additions — pull-based
// access tracking (`withTracking`, `track`, `observe`, `TrackingRegistrar`), diagnostics
// (`RippleDiagnostics`, `trace(_:to:)`), the push/pull comparison and `AsyncSequence.publisher`.
// The `Combine` compatibility module exports only the first part.
@_exported import RippleCore
@_exported import RippleTrackingTypes
