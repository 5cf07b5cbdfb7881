import HubWire
import Testing

@Suite("Legacy FCM bodies translated to the FCM v1 shape")
struct LegacyFcmPayloadTests {
    @Test("data moves into message, and every value becomes a string")
    func dataBecomesStrings() throws {
        let translation = try LegacyFcmPayload.translate(
            #"{"data":{"message":"$(m)","count":3,"ratio":1.5,"vip":true,"extra":{"b":1,"a":"x"},"gone":null}}"#)
        #expect(
            translation.body
                == #"{"message":{"data":{"count":"3","extra":"{\"a\":\"x\",\"b\":1}","message":"$(m)","ratio":"1.5","vip":"true"}}}"#
        )
        #expect(translation.notes.contains("data 'count': a number written as the string \"3\""))
        #expect(translation.notes.contains("data 'vip': a boolean written as the string \"true\""))
        #expect(translation.notes.contains("dropped data 'gone': null (v1 data holds only strings)"))
        #expect(FcmV1Shape.problems(Array(translation.body.utf8)).isEmpty)
    }

    @Test("a bare-number #(x) in data becomes $(x): v1 data takes strings only")
    func bareNumbersBecomeStrings() throws {
        let translation = try LegacyFcmPayload.translate(##"{"data":{"count":"#(count)"}}"##)
        #expect(translation.body == #"{"message":{"data":{"count":"$(count)"}}}"#)
        #expect(translation.notes == ["data 'count': #(count) renders a bare number; written as $(count), a string"])
    }

    @Test("loc args, a JSON array in a string in legacy FCM, become a list of strings; big numbers keep their digits")
    func locArgsAndBigNumbers() throws {
        let translation = try LegacyFcmPayload.translate(
            #"{"notification":{"body_loc_key":"k","body_loc_args":"[\"a\",2]","title_loc_args":["t"]},"data":{"big":18446744073709551616,"pi":3.14159265358979323846}}"#
        )
        #expect(
            translation.body
                == #"{"message":{"android":{"notification":{"body_loc_args":["a","2"],"body_loc_key":"k","title_loc_args":["t"]}},"#
                + #""data":{"big":"18446744073709551616","pi":"3.14159265358979323846"}}}"#)
        #expect(throws: LegacyFcmPayload.Problem.self) {
            try LegacyFcmPayload.translate(#"{"notification":{"body_loc_args":"$(args)"}}"#)
        }
    }

    @Test("the notification splits: title, body and image stay common, Android fields go under android.notification")
    func notificationSplits() throws {
        let translation = try LegacyFcmPayload.translate(
            #"{"notification":{"title":"$(t)","body":"{'Hi ' + $(name)}","icon":"ic","android_channel_id":"news","click_action":"OPEN","image":"https://x/y.png"}}"#
        )
        #expect(
            translation.body
                == #"{"message":{"android":{"notification":{"channel_id":"news","click_action":"OPEN","icon":"ic"}},"#
                + #""notification":{"body":"{'Hi ' + $(name)}","image":"https://x/y.png","title":"$(t)"}}}"#)
        #expect(FcmV1Shape.problems(Array(translation.body.utf8)).isEmpty)
    }

    @Test(
        "time_to_live becomes a duration string, priority high or normal, collapse key and package under android",
        arguments: [
            (
                #"{"data":{"a":"b"},"time_to_live":3600,"priority":"high","collapse_key":"k","restricted_package_name":"com.x"}"#,
                #"{"message":{"android":{"collapse_key":"k","priority":"high","restricted_package_name":"com.x","ttl":"3600s"},"data":{"a":"b"}}}"#
            ),
            (
                #"{"data":{"a":"b"},"time_to_live":"$(ttl)","priority":"normal"}"#,
                #"{"message":{"android":{"priority":"normal","ttl":"{$(ttl) + 's'}"},"data":{"a":"b"}}}"#
            ),
            (
                #"{"data":{"a":"b"},"time_to_live":"{$(days) * 86400}"}"#,
                #"{"message":{"android":{"ttl":"{$(days) * 86400 + 's'}"},"data":{"a":"b"}}}"#
            ),
            (
                #"{"data":{"a":"b"},"time_to_live":"60","priority":10}"#,
                #"{"message":{"android":{"priority":"high","ttl":"60s"},"data":{"a":"b"}}}"#
            ),
            (
                #"{"data":{"a":"b"},"time_to_live":3.5,"priority":5}"#,
                #"{"message":{"android":{"priority":"normal","ttl":"3.5s"},"data":{"a":"b"}}}"#
            ),
        ])
    func androidSettings(legacy: String, v1: String) throws {
        #expect(try LegacyFcmPayload.translate(legacy).body == v1)
        if !v1.contains("$(") { #expect(FcmV1Shape.problems(Array(v1.utf8)).isEmpty) }
    }

    @Test("targets, iOS-only and retired keys are dropped with a note; dry_run: false too")
    func droppedKeys() throws {
        let translation = try LegacyFcmPayload.translate(
            #"{"to":"tok","registration_ids":["a"],"content_available":true,"delay_while_idle":true,"dry_run":false,"data":{"a":"b"}}"#
        )
        #expect(translation.body == #"{"message":{"data":{"a":"b"}}}"#)
        #expect(translation.notes.count == 5, "\(translation.notes)")
        #expect(translation.notes.contains("dropped 'to': the hub addresses each device"))
    }

    @Test(
        "what cannot be translated faithfully is refused with the reason, never guessed",
        arguments: [
            (#"{"data":{"count":$(count)}}"#, "not JSON on its own"),
            (#"{"data":{"a":"b"},"dry_run":true}"#, "'dry_run' is set"),
            (#"{"data":{"a":"b"},"mystery":1}"#, "'mystery' is not a legacy FCM key"),
            (#"{"notification":{"title":"t","badge":"1"}}"#, "'notification.badge' has no FCM v1 place"),
            (#"{"data":{"a":"b"},"priority":"$(p)"}"#, "'priority' is \"$(p)\""),
            (#"{"data":{"a":"b"},"time_to_live":-1}"#, "'time_to_live' is -1"),
            (#"{"message":{"data":{"a":"b"}}}"#, "already has a \"message\" object"),
            (#"{"to":"x"}"#, "neither 'data' nor 'notification'"),
            (#"["data"]"#, "a list, not a JSON object"),
        ])
    func refusals(body: String, expected: String) {
        #expect(throws: LegacyFcmPayload.Problem.self) { try LegacyFcmPayload.translate(body) }
        do {
            _ = try LegacyFcmPayload.translate(body)
        } catch {
            #expect(error.message.contains(expected), "\(error.message)")
        }
    }
}

@Suite("What FCM v1 would refuse in a payload NH accepts")
struct FcmV1ShapeTests {
    @Test("a well-formed v1 payload has no problems")
    func wellFormed() {
        let body =
            #"{"message":{"notification":{"title":"Hi"},"data":{"a":"1"},"android":{"ttl":"3.5s","priority":"high","data":{"b":"2"}}}}"#
        #expect(FcmV1Shape.problems(Array(body.utf8)).isEmpty)
    }

    @Test(
        "each problem named with where it goes",
        arguments: [
            (#"{"data":{"a":"b"}}"#, "this is the legacy FCM shape ('data' at the top)"),
            (#"{"aps":{}}"#, "needs a \"message\" object"),
            (#"{"message":"x"}"#, "\"message\" is a string, not an object"),
            (
                #"{"message":{"data":{"count":3}}}"#,
                "message.data.count is a number; FCM v1 data holds only strings: write it as the string \"3\""
            ),
            (#"{"message":{"data":["a"]}}"#, "message.data must be an object of strings, found a list"),
            (
                #"{"message":{"android":{"ttl":3600}}}"#,
                "message.android.ttl must be a string of seconds such as \"3.5s\", found 3600"
            ),
            (#"{"message":{"android":{"ttl":"1h"}}}"#, "found \"1h\""),
            (#"{"message":{"android":{"ttl":"1.0000000001s"}}}"#, "message.android.ttl must be"),
            (
                #"{"message":{"android":{"priority":"urgent"}}}"#,
                "message.android.priority must be \"high\" or \"normal\", found \"urgent\""
            ),
            (#"{"message":{"android":{"data":{"n":1}}}}"#, "message.android.data.n is a number"),
            (
                #"{"message":{"time_to_live":60}}"#,
                "message.time_to_live is a legacy FCM key; in FCM v1 it goes to message.android.ttl"
            ),
            (#"{"message":{"token":"t"}}"#, "message.token names a target"),
            (
                #"{"message":{"notification":{"icon":"i"}}}"#,
                "message.notification.icon is not an FCM v1 notification field; it goes to message.android.notification.icon"
            ),
        ])
    func problems(body: String, expected: String) {
        let found = FcmV1Shape.problems(Array(body.utf8))
        #expect(found.contains { $0.contains(expected) }, "\(found)")
    }

    @Test("a template is judged by what its expressions can render")
    func templates() {
        let body =
            ##"{"message":{"data":{"count":"#(count)","name":"$(name)"},"android":{"ttl":"{$(ttl) + 's'}","priority":"$(p)"}}}"##
        #expect(
            FcmV1Shape.problems(template: Array(body.utf8))
                == [
                    "message.data.count is #(count), which renders a bare number for a number-like value; FCM v1 data holds only strings: write $(count)"
                ])
        #expect(
            FcmV1Shape.problems(
                template: Array(#"{"message":{"android":{"ttl":3600,"notification":{"body_loc_args":"x"}}}}"#.utf8)
            ).count == 2)
        #expect(FcmV1Shape.problems(Array(#"{"message":{"android":{"priority":1}}}"#.utf8)).isEmpty)
    }

    @Test("a body that is not JSON is left to the JSON lint")
    func notJSON() {
        #expect(FcmV1Shape.problems(Array("{".utf8)).isEmpty)
    }
}
