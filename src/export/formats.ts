// The export formats by name: the one list the CLI, the editor command and the exporters share. Kept apart from the
// exporters so that parsing a command line or building a picker does not load them.

export const EXPORT_FORMATS = ['md', 'json', 'sequentialthinking-plus', 'html', 'otlp'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Names accepted for a format besides its own (what earlier versions called it), e.g. on the CLI's --format. */
const EXPORT_FORMAT_ALIASES: Readonly<Record<string, ExportFormat>> = { 'json-seed001': 'sequentialthinking-plus' };

/** File name ending for each format. */
export const EXPORT_EXTENSIONS: Readonly<Record<ExportFormat, string>> = {
  md: '.md',
  json: '.json',
  'sequentialthinking-plus': '.stp.json',
  html: '.html',
  // OpenTelemetry's own name for an OTLP/JSON trace file.
  otlp: '.otlp.json',
};

export function isExportFormat(value: string): value is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(value);
}

/** The format a user-typed name stands for (its own name or an alias), or undefined. */
export function exportFormatNamed(name: string): ExportFormat | undefined {
  if (isExportFormat(name)) return name;
  return Object.hasOwn(EXPORT_FORMAT_ALIASES, name) ? EXPORT_FORMAT_ALIASES[name] : undefined;
}
