import Logging
import PipelineCore
import PluginProtocol
import Synchronization

/// The three conversations the host has with a plugin: `describe` (what are you?), `check` (are these options
/// right?) and `run`. Each starts the plugin afresh, asks `describe` first, and ends by closing its stdin.
package struct PluginHost: Sendable {
    /// The plugin.
    package let declaration: PluginDeclaration
    /// The pipeline's folder: the plugin's working directory.
    package let directory: String
    /// The values of the secret options of the step it runs for, hidden with its declaration's secrets.
    package var optionSecrets: [String] = []

    /// How long `describe` and `check` may take: they are cheap and have no effects, but a runtime's cold start
    /// (a JVM, Node on a busy machine) can take seconds.
    package var handshakeTimeout: Duration = .seconds(30)
    /// How long a plugin has to exit once its stdin is closed: on a loaded machine a process that answered can
    /// take seconds to be scheduled again. Tests give more still.
    package var exitGrace: Duration = .seconds(10)

    /// Creates a host for one declared plugin.
    package init(declaration: PluginDeclaration, directory: String) {
        self.declaration = declaration
        self.directory = directory
    }

    /// What the plugin is.
    package func describe(logger: Logger? = nil) async throws(PluginFailure) -> PluginDescription {
        try await PluginProcess(
            declaration: declaration, optionSecrets: optionSecrets, directory: directory, logger: logger,
            exitGrace: exitGrace
        ).converse(timeout: handshakeTimeout, handshake: true) { channel throws(PluginFailure) in
            try await Self.handshake(channel)
        }
    }

    /// The plugin's own findings about `options` (after the host's checks of keys and types): each a path into the
    /// options, a message and a hint.
    package func check(_ options: PluginValue, logger: Logger? = nil) async throws(PluginFailure) -> [(
        path: [PluginValue], message: String, hint: String?
    )] {
        try await PluginProcess(
            declaration: declaration, optionSecrets: optionSecrets, directory: directory, logger: logger,
            exitGrace: exitGrace
        ).converse(timeout: handshakeTimeout, handshake: true) { channel throws(PluginFailure) in
            _ = try await Self.handshake(channel)
            try await channel.send(.check(id: 2, options: options))
            let result = try await Self.answer(to: 2, on: channel, method: "check", rows: nil)
            guard case .array(let problems)? = result["problems"] else {
                if result["problems"] == nil { return [] }
                throw PluginFailure.brokenProtocol(
                    "the check result's \"problems\" must be a list",
                    hint: "answer {\"problems\": []} when the options are right")
            }
            return problems.map { problem in
                let path: [PluginValue] = if case .array(let parts)? = problem["path"] { parts } else { [] }
                return (path, problem["message"]?.string ?? "the plugin refused this value", problem["hint"]?.string)
            }
        }
    }

    /// Runs the plugin: rows it sends go to `rows` (in order) before its result, which is returned; its progress
    /// messages go to `progress`. `stop` (the run's) stops the plugin when the run is stopped.
    package func run(
        _ options: PluginValue, context: PluginRequest.RunContext, timeout: Duration, logger: Logger?,
        stop: StopSignal? = nil,
        progress: (@Sendable (_ done: Int, _ total: Int?) -> Void)? = nil,
        rows: (([PluginValue]) async throws(PluginFailure) -> Void)?
    ) async throws(PluginFailure) -> PluginValue {
        var process = PluginProcess(
            declaration: declaration, optionSecrets: optionSecrets, directory: directory, logger: logger,
            exitGrace: exitGrace)
        process.stop = stop
        // Whether the plugin was ever given the run request: before that, whatever failed (it would not start, its
        // handshake broke, it was stopped), it did nothing.
        let written = Mutex(false)
        do {
            return try await process.converse(timeout: timeout) { channel throws(PluginFailure) in
                _ = try await Self.handshake(channel)
                try await channel.send(.run(id: 2, options: options, context: context))
                written.withLock { $0 = true }
                return try await Self.answer(to: 2, on: channel, method: "run", rows: rows, progress: progress)
            }
        } catch {
            var failure = error
            failure.beforeRunRequest = !written.withLock { $0 }
            throw failure
        }
    }

    /// Sends a request the plugin does not know after the handshake: it must answer with an error (and not crash,
    /// hang or answer something else).
    package func probe(method: String) async throws(PluginFailure) {
        try await PluginProcess(
            declaration: declaration, optionSecrets: optionSecrets, directory: directory, logger: nil,
            exitGrace: exitGrace
        ).converse(timeout: handshakeTimeout, handshake: true) { channel throws(PluginFailure) in
            _ = try await Self.handshake(channel)
            try await channel.send(.other(id: 2, method: method))
            if case .result(let result) = try await Self.reply(to: 2, on: channel, method: method, rows: nil) {
                throw PluginFailure(
                    "the plugin answered the unknown method '\(method)' with a result: \(PluginRedaction(declaration, options: optionSecrets)(result.json).prefix(80))",
                    hint:
                        "answer a method you do not know with {\"id\": …, \"error\": {\"message\": \"unknown method\"}}"
                )
            }
        }
    }

    /// Sends `describe` and reads the plugin's answer.
    static func handshake(_ channel: PluginChannel) async throws(PluginFailure) -> PluginDescription {
        try await channel.send(.describe(id: 1))
        let result = try await answer(to: 1, on: channel, method: "describe", rows: nil)
        do {
            return try PluginDescription(result)
        } catch {
            throw PluginFailure(error, stderr: [])
        }
    }

    /// The answer to a request: its result, or the plugin's error.
    enum Reply {
        case result(PluginValue)
        case error(String, hint: String?)
    }

    /// Reads messages until the answer to request `id`: its result, or a failure for its error.
    static func answer(
        to id: Int, on channel: PluginChannel, method: String,
        rows: (([PluginValue]) async throws(PluginFailure) -> Void)?,
        progress: (@Sendable (Int, Int?) -> Void)? = nil
    ) async throws(PluginFailure) -> PluginValue {
        switch try await reply(to: id, on: channel, method: method, rows: rows, progress: progress) {
        case .result(let value): return value
        case .error(let text, let hint):
            var failure = PluginFailure(text, hint: hint)
            failure.answered = true
            throw failure
        }
    }

    /// Reads messages until the answer to request `id`. Rows go to `rows` (a request that takes none refuses them);
    /// progress goes to `progress`, when given.
    static func reply(
        to id: Int, on channel: PluginChannel, method: String,
        rows: (([PluginValue]) async throws(PluginFailure) -> Void)?,
        progress: (@Sendable (Int, Int?) -> Void)? = nil
    ) async throws(PluginFailure) -> Reply {
        while true {
            guard let message = try await channel.next() else {
                throw PluginFailure(
                    "the plugin ended without answering the \(method) request",
                    hint: "answer each request with a result or an error line on stdout, flushed, before exiting")
            }
            guard message.id == id else {
                throw PluginFailure.brokenProtocol(
                    "a message carries id \(message.id) while the \(method) request (id \(id)) is open",
                    hint: "echo the id of the request you are answering")
            }
            switch message {
            case .result(_, let value):
                return .result(value)
            case .error(_, let text, let hint):
                return .error(text, hint: hint)
            case .rows(_, let batch):
                guard let rows else {
                    throw PluginFailure.brokenProtocol(
                        "rows in answer to the \(method) request", hint: "send rows only while running")
                }
                try await rows(batch)
            case .progress(_, let done, let total):
                progress?(done, total)
            }
        }
    }
}
