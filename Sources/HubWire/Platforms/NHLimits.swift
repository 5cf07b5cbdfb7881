/// Service limits from nh-rest-api.md §8, in one place so client checks and the emulator agree.
public enum NHLimits {
    /// Largest send request body; larger requests get 413.
    public static let maxRequestBytes = 65536
    /// Most device handles in one direct batch send.
    public static let maxDirectBatchHandles = 1000
    /// Most tags on one installation or registration.
    public static let maxTagsPerInstallation = 60
    /// Longest tag, in characters.
    public static let maxTagLength = 120
    /// Most tags in a tag expression that only uses OR (`||`).
    public static let maxTagsInOrExpression = 20
    /// Most tags in any other tag expression.
    public static let maxTagsInExpression = 6
    /// Furthest a scheduled send may lie in the future, in seconds (7 days).
    public static let maxScheduleAheadSeconds: Int64 = 7 * 24 * 3600
    /// Longest template name, in characters.
    public static let maxTemplateNameLength = 200
    /// Longest template property name, in characters.
    public static let maxTemplatePropertyNameLength = 120
    /// Most devices a test ("debug") send reports on.
    public static let maxTestSendDevices = 10
    /// Longest hub name, in characters.
    public static let maxHubNameLength = 260
    /// Longest SAS key name and key, in characters (client-side check in the .NET SDK).
    public static let maxSASKeyLength = 256
}
