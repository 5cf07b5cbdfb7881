import Foundation
import PipelineCore

/// Reads a file as UTF-8 text with the checks hostile input needs: size, encoding, BOM.
enum SourceText {
    /// The file's text, or nil after reporting why it cannot be used.
    static func read(_ path: String, limit: Int, what: String, at reference: SourceLocation?, diagnostics: DiagnosticCollector) -> String? {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            diagnostics.error("\(what) '\(path)' does not exist", at: reference,
                              hint: "check the path; relative paths are resolved against the pipeline file's directory")
            return nil
        }
        guard !isDirectory.boolValue else {
            diagnostics.error("\(what) '\(path)' is a directory, not a file", at: reference)
            return nil
        }
        if let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, size > limit {
            diagnostics.error("\(what) '\(path)' is \(size) bytes; the limit is \(limit) bytes", at: reference ?? SourceLocation(file: path, line: 1, column: 1),
                              hint: "is this the right file?")
            return nil
        }
        guard let data = try? Data(contentsOf: url) else {
            diagnostics.error("\(what) '\(path)' cannot be read", at: reference, hint: "check its permissions")
            return nil
        }
        return decode(data, file: path, diagnostics: diagnostics)
    }

    /// Strict UTF-8 decoding; an invalid byte is reported at its line and column.
    static func decode(_ data: Data, file: String, diagnostics: DiagnosticCollector) -> String? {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        let (offset, line, column) = firstInvalidByte(bytes)
        diagnostics.error(
            "file is not valid UTF-8: invalid byte 0x\(String(bytes[offset], radix: 16, uppercase: true)) at byte \(offset)",
            at: SourceLocation(file: file, line: line, column: column),
            hint: "save the file as UTF-8")
        return nil
    }

    /// Offset, line and column of the first byte that breaks UTF-8.
    private static func firstInvalidByte(_ bytes: [UInt8]) -> (Int, Int, Int) {
        var line = 1, column = 1, index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length = byte < 0x80 ? 1 : byte >> 5 == 0b110 ? 2 : byte >> 4 == 0b1110 ? 3 : byte >> 3 == 0b11110 ? 4 : 0
            guard length > 0, index + length <= bytes.count,
                String(validating: bytes[index..<index + length], as: UTF8.self) != nil
            else { return (index, line, column) }
            if byte == 0x0A { line += 1; column = 1 } else { column += 1 }
            index += length
        }
        return (max(0, bytes.count - 1), line, column)
    }
}
