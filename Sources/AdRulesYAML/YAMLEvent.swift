/// One step through a YAML document, as ``YAMLEventCursor`` hands it out.
public enum YAMLEvent: Sendable {
    /// A scalar, as a node with its range. An alias stands here as an empty plain scalar: after its diagnostic in a
    /// rule file; elsewhere ``YAMLEventCursor/node(from:)`` puts the node its anchor names in its place.
    case scalar(YAMLNode)
    /// A mapping starts here.
    case mappingStart(SourcePosition)
    /// A sequence starts here.
    case sequenceStart(SourcePosition)
    /// The innermost open mapping or sequence ends just before this position.
    case end(SourcePosition)
}
