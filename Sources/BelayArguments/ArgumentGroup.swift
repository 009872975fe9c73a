/// Declarations several commands share, kept in one struct: a command that stores an
/// `ArgumentGroup` (`let inputs = RenderInputs()`) parses, lists and reads the group's
/// declarations as if they were its own, in the group's declaration order.
public protocol ArgumentGroup: Sendable {
    init()
}
