import PipelineCore
import Testing

@testable import PipelineConfig

/// `parameters:`, `${param:NAME}` and the values a run is given.
@Suite struct ParameterTests {
    let harness = LoaderHarness()

    private let pipeline = """
        version: 1
        parameters:
          user: { pattern: "[a-z0-9]{1,32}", required: true, description: "who is notified" }
          message: { default: "Hello" }
          badge: { type: integer, default: "1" }
          platform: { allowed: [apns, fcmv1], default: apns }
          note:
        description: "to ${param:user}: ${param:message} (${param:badge}, ${param:platform}, '${param:note}', $${param:user})"
        steps: [{ noop: {} }]

        """

    @Test func givenValuesAndDefaultsResolveEverywhereAndAreKeptOnTheDocument() throws {
        harness.write("p.yaml", pipeline)
        let (document, diagnostics) = harness.load("p.yaml", purpose: .run, parameters: ["user": "bob", "badge": "-3"])
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
        let loaded = try #require(document)
        #expect(loaded.description == "to bob: Hello (-3, apns, '', ${param:user})")
        #expect(
            loaded.parameterValues == [
                "user": "bob", "message": "Hello", "badge": "-3", "platform": "apns", "note": "",
            ])
        #expect(loaded.parameters.map(\.name) == ["user", "message", "badge", "platform", "note"])
        #expect(loaded.parameters[0].required && loaded.parameters[0].pattern == "[a-z0-9]{1,32}")
        #expect(loaded.parameters[2].kind == .integer)
        #expect(loaded.parameters[3].allowed == ["apns", "fcmv1"])
    }

    @Test func aRunWithoutARequiredValueFailsAtTheDeclarationButValidateDoesNot() {
        harness.write("p.yaml", pipeline)
        #expect(
            harness.headlines("p.yaml", purpose: .run).contains(
                "p.yaml:3:3: error: parameter 'user' is required and was not given"))
        #expect(harness.headlines("p.yaml", purpose: .validate).filter { $0.contains("error") }.isEmpty)
    }

    @Test func badValuesAndUnknownNamesAreErrorsNamingTheParameter() {
        harness.write("p.yaml", pipeline)
        let lines = harness.headlines(
            "p.yaml", purpose: .run,
            parameters: ["user": "Bob!", "badge": "two", "platform": "wns", "mesage": "hi"])
        #expect(
            lines.contains(
                "p.yaml:3:3: error: parameter 'user' must match [a-z0-9]{1,32}; the value given does not (as given)"))
        #expect(
            lines.contains(
                "p.yaml:5:3: error: parameter 'badge' must be a whole number; the value given is not (as given)"))
        #expect(
            lines.contains(
                "p.yaml:6:3: error: parameter 'platform' must be one of apns, fcmv1; the value given is not (as given)")
        )
        #expect(
            !lines.contains { $0.contains("Bob!") || $0.contains("two") },
            "a value never reaches a message: it may be a secret")
        #expect(lines.contains("p.yaml:3:3: error: the pipeline has no parameter 'mesage'; did you mean 'message'?"))
    }

    @Test func aReferenceToAnUndeclaredParameterIsAnErrorWithDidYouMean() {
        harness.write(
            "p.yaml",
            """
            version: 1
            parameters:
              user: { default: bob }
            description: "${param:usr}"
            steps: [{ noop: {} }]
            """)
        #expect(
            harness.headlines("p.yaml").contains(
                "p.yaml:4:14: error: unknown parameter 'usr' (referenced as ${param:usr}); did you mean 'user'?"))
    }

    @Test func declarationsAreChecked() {
        harness.write(
            "p.yaml",
            """
            version: 1
            parameters:
              "bad name": {}
              user: { pattern: "([a-z", default: x }
              count: { type: integer, default: many }
              both: { required: true, default: x }
              kind: { type: text }
            steps: [{ noop: {} }]
            """)
        let lines = harness.headlines("p.yaml")
        #expect(lines.contains("p.yaml:3:3: error: parameter name 'bad name' may hold only letters, digits, _ and -"))
        #expect(lines.contains("p.yaml:4:20: error: parameter 'user': 'pattern' is not a valid regular expression"))
        #expect(
            lines.contains(
                "p.yaml:5:36: error: the default of parameter 'count' must be a whole number; the value given is not"))
        #expect(lines.contains("p.yaml:6:36: error: parameter 'both' is required, so a default would never be used"))
        #expect(lines.contains { $0.hasPrefix("p.yaml:7:17: error:") && $0.contains("'type'") })
    }

    @Test func aValueIsTextNeverYAML() throws {
        harness.write(
            "p.yaml",
            """
            version: 1
            parameters:
              note: {}
            description: "${param:note}"
            steps: [{ noop: {} }]
            """)
        let (document, _) = harness.load("p.yaml", purpose: .run, parameters: ["note": "a: [b, {c}]\n- d"])
        #expect(document?.description == "a: [b, {c}]\n- d")
    }

    @Test func aPatternMatchesTheWholeValueOnlyAndCannotBeEscapedFrom() {
        harness.write(
            "p.yaml",
            """
            version: 1
            parameters:
              user: { pattern: "[a-z]+" }
              odd: { pattern: "a)|(b" }
            steps: [{ noop: {} }]
            """)
        #expect(
            harness.headlines("p.yaml").contains(
                "p.yaml:4:19: error: parameter 'odd': 'pattern' is not a valid regular expression"))
        for bad in ["alice\n", "alice bob", "\nalice", ""] {
            #expect(
                harness.headlines("p.yaml", purpose: .run, parameters: ["user": bad])
                    .contains(
                        "p.yaml:3:3: error: parameter 'user' must match [a-z]+; the value given does not (as given)"),
                "\(bad.debugDescription)")
        }
    }

    @Test func aDefaultMayBeAReferenceAndResolvesToItsValue() throws {
        harness.write(
            "p.yaml",
            """
            version: 1
            parameters:
              user: { default: "${env:DIGEST_USER}" }
            description: "for ${param:user}"
            steps: [{ noop: {} }]
            """)
        let (document, _) = harness.load("p.yaml", purpose: .run, environment: ["DIGEST_USER": "carol"])
        #expect(document?.description == "for carol")
        #expect(document?.parameterValues["user"] == "carol")
    }
}
