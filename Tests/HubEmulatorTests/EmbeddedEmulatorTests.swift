import Foundation
import HTTPTypes
import HubEmulator
import Testing

/// The emulator served by a task of the same process, as `pushline demo` runs it.
@Suite struct EmbeddedEmulatorTests {
    @Test func itListensOnAFreePortAnswersRawHTTPAndStopsGracefully() async throws {
        let emulator = try await Emulator(configuration: NH.configuration())
        let server = try await EmbeddedEmulator.start(emulator, port: 0)
        #expect(server.port > 0)
        let response = try await RawClient(port: server.port).request(.get, "/_emulator/deliveries")
        #expect(response.status == 200)
        await server.stop()
        await server.waitUntilStopped()
    }

    @Test func aTakenPortIsAStartFailureNamingIt() async throws {
        let first = try await EmbeddedEmulator.start(try await Emulator(configuration: NH.configuration()), port: 0)
        let error = await #expect(throws: EmulatorStartFailure.self) {
            _ = try await EmbeddedEmulator.start(
                try await Emulator(configuration: NH.configuration()), port: first.port)
        }
        #expect(error?.message.contains("port \(first.port)") == true)
        await first.stop()
    }
}
