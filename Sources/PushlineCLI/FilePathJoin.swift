import ArgumentParser
import Foundation
import PipelineConfig

/// `directory/relative`, without `./` noise for the current directory.
enum FilePathJoin {
    static func join(_ directory: String, _ relative: String) -> String {
        directory == "." ? relative : (directory.hasSuffix("/") ? directory + relative : directory + "/" + relative)
    }
}
