import Foundation
import PushlineCLI

PushlineMain.bootstrapLogging()
exit(await PushlineMain.run(Array(CommandLine.arguments.dropFirst())))
