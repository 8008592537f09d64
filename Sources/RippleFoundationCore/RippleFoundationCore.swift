// RippleFoundationCore: the parts of Combine's API that live on Foundation types — notification,
// timer and URLSession data task publishers, JSON coders as top-level coders, RunLoop and
// OperationQueue schedulers. Exactly Combine's names: the `Combine` module re-exports it whole, and
// RippleFoundation re-exports it with Ripple's additions. It re-exports the core and Foundation.
@_exported import Foundation
@_exported import RippleCore

extension JSONEncoder: TopLevelEncoder {}
extension JSONDecoder: TopLevelDecoder {}
extension PropertyListEncoder: TopLevelEncoder {}
extension PropertyListDecoder: TopLevelDecoder {}
