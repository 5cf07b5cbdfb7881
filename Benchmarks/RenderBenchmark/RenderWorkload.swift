import HubExpressions

/// One template rendered over and over with the same properties, as a send renders it once per device.
///
/// The template is compiled once, outside the measured loop: that is how Pushline and the emulator use
/// templates, and what the issue's target is about (no per-render parsing).
struct RenderWorkload: Sendable {
    let name: String
    let template: CompiledTemplate
    let properties: TemplateProperties

    /// The seed tutorial's generic template, with the tutorial's message.
    static func generic() throws -> RenderWorkload {
        try RenderWorkload(
            name: "generic template (seed)", source: #"{"aps":{"alert":"$(message)"}}"#,
            properties: ["message": "Hello from Postman!"])
    }

    /// A 2 KB APNs template with 10 expressions of every form (`$`, `.`, `%`, `#`, composites), most of its
    /// bytes literal, as rich iOS notifications are.
    static func richAPNs() throws -> RenderWorkload {
        try RenderWorkload(
            name: "2 KB APNs template, 10 expressions", source: richAPNsSource,
            properties: [
                "title": "Breaking: markets close at a record high on strong tech results",
                "body": "The index rose 2.4% on Tuesday as technology shares rallied after strong quarterly results.",
                "badge": "3",
                "first": "Ada",
                "last": "Lovelace",
                "articleUrl": "https://news.example.com/markets/2026/11/22/record close?ref=push&lang=en",
                "category": "NEWS_ARTICLE",
                "thread": "markets",
                "price": "1234.5",
                "section": "Markets & Finance",
            ])
    }

    init(name: String, source: String, properties: TemplateProperties) throws {
        self.name = name
        self.template = try CompiledTemplate(compiling: source)
        self.properties = properties
    }

    /// Renders `count` times; returns the total bytes produced so the work cannot be optimised away.
    func run(_ count: Int) -> Int {
        var bytes = 0
        for _ in 0..<count {
            bytes &+= template.render(properties).utf8.count
        }
        return bytes
    }

    static let richAPNsSource: String = {
        // Literal padding stands in for the static parts of a rich payload (actions, analytics keys, flags).
        let padding = (1...29).map { #""flag\#($0)":"static configuration value number \#($0) for the client""# }
            .joined(separator: ",")
        return #"""
            {"aps":{"alert":{"title":".(title, 60)","subtitle":"{'For ' + $(first) + ' ' + $(last)}","body":"$(body, 178)"},\#
            "badge":"#(badge)","sound":"default","category":"$(category)","thread-id":"$(thread)","mutable-content":1},\#
            "article":{"url":"%(articleUrl)","section":"$(section)","price":"#(price)","shareText":"{'Read: ' + $(title, 40)}"},\#
            "client":{\#(padding)}}
            """#
    }()
}
