import Foundation
import PushlineCLI

PushlineMain.protectProcess()
PushlineMain.bootstrapLogging()
exit(await PushlineMain.run(Array(CommandLine.arguments.dropFirst())))
