// What OpenCombine's shim module does when Apple's Combine exists — re-export Combine — with Ripple's
// `Combine` module as the Combine: a library that imports `OpenCombineShim` gets the same types as
// the code beside it that imports `Combine`, and SwiftPM builds `Combine` first, because this
// module depends on it.
@_exported import Combine
