/// The version `adrules --version` prints.
public enum AdRulesVersion {
    /// The current release.
    public static let current = "0.1.0"
}
