import Foundation

/// An app (SwiftUI's `App`): its `body` is scenes, and a ``RenderTree`` can host it as its root
/// (`RenderTree(MyApp())`), with the app's own `@StateObject`s and `@State` kept in the root node.
@MainActor @preconcurrency
public protocol App {
    /// The type of scene representing the content of the app.
    associatedtype Body: Scene
    /// The content of the app.
    @SceneBuilder var body: Body { get }
    /// Creates an instance of the app.
    init()
}

extension App {
    /// Runs the app headless: hosts it in a ``RenderTree`` and prints what its first screen shows.
    public static func main() {
        let tree = RenderTree(Self())
        for text in tree.texts { print(text) }
    }
}

/// A part of an app's user interface (SwiftUI's `Scene`).
@MainActor @preconcurrency
public protocol Scene {
    /// The type of scene that represents the body of this scene.
    associatedtype Body: Scene
    /// The content of the scene.
    @SceneBuilder var body: Body { get }
}

extension Never: Scene {}

/// Scenes the tree knows how to show: they list their views.
public protocol _PrimitiveScene: Scene where Body == Never {
    /// The views the scene shows.
    var _views: [any View] { get }
}

extension _PrimitiveScene {
    /// Primitive scenes have no body.
    public var body: Never { fatalError("\(Self.self) is a primitive scene and has no body") }
}

/// A scene of windows showing the same view (one window, for the tree).
public struct WindowGroup<Content: View>: _PrimitiveScene {
    let content: Content
    /// A window group of the view `content` builds.
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    /// A titled window group (the title is inert).
    public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) { self.content = content() }
    /// A window group with an identifier (inert).
    public init(id: String, @ViewBuilder content: () -> Content) { self.content = content() }
    public var _views: [any View] { [content] }
}

/// A settings scene (shown by the tree after the app's windows).
public struct Settings<Content: View>: _PrimitiveScene {
    let content: Content
    /// A settings scene of the view `content` builds.
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    public var _views: [any View] { [content] }
}

/// Several scenes.
public struct _TupleScene: _PrimitiveScene {
    let scenes: [any Scene]
    public var _views: [any View] { scenes.flatMap { sceneViews($0) } }
}

/// A scene whose views get a view modifier (`.onChange(of:)` on a scene).
public struct _ModifiedScene<Content: Scene>: _PrimitiveScene {
    let content: Content
    let transform: @MainActor (AnyView) -> AnyView
    public var _views: [any View] { sceneViews(content).map { transform(AnyView(erasing: $0)) } }
}

/// The views a scene shows, evaluating composite scenes' bodies.
@MainActor func sceneViews(_ scene: any Scene) -> [any View] {
    if let primitive = scene as? any _PrimitiveScene { return primitive._views }
    func body<S: Scene>(_ scene: S) -> any Scene { scene.body }
    return sceneViews(body(scene))
}

/// SwiftUI's result builder for scenes.
@MainActor @resultBuilder
public enum SceneBuilder {
    /// Passes a scene through.
    public static func buildBlock<S: Scene>(_ scene: S) -> S { scene }
    /// Builds several scenes.
    public static func buildBlock<each S: Scene>(_ scenes: repeat each S) -> _TupleScene {
        var all: [any Scene] = []
        repeat all.append(each scenes)
        return _TupleScene(scenes: all)
    }
}

extension Scene {
    /// Performs `action` with the old and new value when `value` changes (on the scene's views).
    public func onChange<V: Equatable>(
        of value: V, initial: Bool = false, _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void
    ) -> some Scene {
        _ModifiedScene(content: self) { AnyView($0.onChange(of: value, initial: initial, action)) }
    }

    /// Performs `action` when `value` changes (on the scene's views).
    public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping () -> Void) -> some Scene {
        _ModifiedScene(content: self) { AnyView($0.onChange(of: value, initial: initial, action)) }
    }
}

/// The root view that hosts an ``App``: its children are the app's scenes' views, and the app's
/// stored properties (its `@StateObject`s and `@State`) live in its node.
public struct _AppRoot<Application: App>: _PrimitiveView {
    let app: Application
    public func _children(in node: _NodeHandle) -> [_Child] {
        node.installDynamicProperties(of: app)
        return [_Child(TupleView(sceneViews(app.body)), key: 0)]
    }
}

extension RenderTree {
    /// Hosts `app` as the root: the app's scenes' views are evaluated, with the app's
    /// `@StateObject`s and `@State` kept in the root node.
    public convenience init<A: App>(_ app: A, environment: EnvironmentValues = EnvironmentValues()) {
        self.init(_AppRoot(app: app), environment: environment)
    }
}

/// A type that produces view previews (SwiftUI's `PreviewProvider`): preview code compiles as it
/// is. RippleUI shows no previews; to check one, render it: `RenderTree(MyView_Previews.previews)`.
///
/// The `#Preview` macro is not provided (a macro would need swift-syntax, a package dependency):
/// keep `#Preview` blocks inside `#if canImport(SwiftUI)`.
@MainActor @preconcurrency
public protocol PreviewProvider {
    /// The type of the previews.
    associatedtype Previews: View
    /// The views to preview.
    @ViewBuilder static var previews: Previews { get }
}
