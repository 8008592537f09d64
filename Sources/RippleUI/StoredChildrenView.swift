/// A primitive view whose children are views its parent's body already built (stacks, groups,
/// modifiers, controls with a label) or that has none (`Text`): listing its children reads no model,
/// so the render tree lists them without a tracking scope.
///
/// A primitive that builds its children when asked (`ForEach` calls its content closure then) must
/// not conform: what that closure reads is a dependency of the primitive's node.
protocol StoredChildrenView {}

extension Text: StoredChildrenView {}
extension EmptyView: StoredChildrenView {}
extension TupleView: StoredChildrenView {}
extension _ConditionalContent: StoredChildrenView {}
extension Optional: StoredChildrenView where Wrapped: View {}
extension AnyView: StoredChildrenView {}
extension Group: StoredChildrenView {}
extension VStack: StoredChildrenView {}
extension HStack: StoredChildrenView {}
extension Button: StoredChildrenView {}
extension TextField: StoredChildrenView {}
extension Toggle: StoredChildrenView {}
extension _IdentifiedView: StoredChildrenView {}
extension _EnvironmentWriter: StoredChildrenView {}
extension _OnChange: StoredChildrenView {}
extension _OnReceive: StoredChildrenView {}
