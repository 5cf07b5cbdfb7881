/// Case of the hexadecimal digits in `%XX` escapes.
///
/// The service signs `sr` exactly as transmitted, so escape case changes the signature:
/// .NET and the seed tutorial use lower case, JS and pyamqp upper case (nh-rest-api.md §1.2).
public enum HexCase: Sendable, Equatable, CaseIterable {
    /// `%2f` style escapes (seed tutorial, .NET `HttpUtility.UrlEncode`).
    case lower
    /// `%2F` style escapes (JS `encodeURIComponent`, pyamqp `quote_plus`).
    case upper
}
