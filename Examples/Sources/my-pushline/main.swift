import PushlineKit
import QuietHours

await Pushline.main(adding: [QuietHoursStep.self])
