import HubExpressions
import PipelineCore

/// Decodes `render`'s options, reporting every problem with its YAML location before anything runs.
struct RenderOptionsDecoder {
    let options: OptionReader
    let context: BuildContext

    func decode() -> RenderStep? {
        let template = context.template(RenderStep.Keys.template, in: options)
        let values = options.templateProperties(in: context)
        guard let template, let body = template.body, let values else { return nil }
        guard options.checkProperties(values.keys, for: template) else { return nil }
        let properties = TemplateProperties(values)
        return RenderStep(template: template, body: body, properties: properties)
    }
}
