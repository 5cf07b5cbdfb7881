import Foundation
import PipelineCore

/// A pipeline fixture whose comments mark where each diagnostic must land.
///
/// A marker is a comment line with a caret under the column and the expected diagnostic after it;
/// it refers to the nearest line above that is not a marker:
///
/// ```yaml
///   - sign: { hub: sprots }
/// #                ^ error: [sign] unknown hub 'sprots'; did you mean 'sports'?
/// ```
struct MarkerFixture {
    /// `line:column: severity: message`, the form compared.
    let expected: [String]

    init(text: String) {
        var expected: [String] = []
        var targetLine = 0
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("#"), let caret = line.firstIndex(of: "^"),
                line[line.index(after: caret)...].hasPrefix(" error: ")
                    || line[line.index(after: caret)...].hasPrefix(" warning: ")
            {
                let column = line.distance(from: line.startIndex, to: caret) + 1
                let rest = line[line.index(caret, offsetBy: 2)...]
                expected.append("\(targetLine):\(column): \(rest)")
            } else {
                targetLine = offset + 1
            }
        }
        self.expected = expected
    }

    /// The same form for actual diagnostics in `file`.
    static func actual(_ diagnostics: [Diagnostic], in file: String) -> [String] {
        diagnostics.filter { $0.location?.file == file }.map { diagnostic in
            let location = diagnostic.location!
            let step = diagnostic.step.map { "[\($0)] " } ?? ""
            return "\(location.line):\(location.column): \(diagnostic.severity.rawValue): \(step)\(diagnostic.message)"
        }
    }
}

/// Paths of the repository.
enum Repository {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.path
            }
        }
        return FileManager.default.currentDirectoryPath
    }()

    static let fixtures = root + "/Tests/BuiltinStepsTests/Fixtures"
}
