import Foundation
import PipelineConfig
import PipelineCore

/// A pipeline as `pushline runs` options name it: by its name (`daily-digest`) or by its file
/// (`pipelines/daily-digest.yaml`), which stands for the name that file goes by.
enum PipelineNameArgument {
    /// The pipeline name `text` stands for: a file's `name:` (or file name without extension) when `text` names a file
    /// that exists, else `text` itself.
    static func resolve(_ text: String, environment: [String: String]) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: text, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return text
        }
        // Only the name is wanted: a reference that cannot resolve here (a secret this shell lacks) is no obstacle.
        let loader = PipelineLoader(options: LoaderOptions(purpose: .validate, environment: environment))
        return loader.load(path: text, diagnostics: DiagnosticCollector())?.name ?? PipelineName.fromFile(text)
    }
}
