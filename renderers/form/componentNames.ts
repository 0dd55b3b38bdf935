/** The components a Formily schema may name; formily.tsx registers exactly these (a unit test says so). */
export const FORM_COMPONENT_NAMES = [
  'ArrayList', 'Checkbox', 'DatePicker', 'DictSelect', 'FileUpload', 'FormGrid', 'FormItem', 'FormLayout',
  'FormStep', 'FormTab', 'Input', 'NumberPicker', 'OperationSelect', 'OperationTreeSelect', 'Password', 'Radio', 'RichText', 'Select',
  'Space', 'Switch', 'TemplateForm', 'TimePicker', 'TreeSelect',
] as const;

/** Which catalogue kind an operation named in a component's props must have. */
export const COMPONENT_OPERATION_PROPS: Readonly<Record<string, { prop: string; kinds: readonly string[] }>> = {
  OperationSelect: { prop: 'operation', kinds: ['call', 'get'] },
  OperationTreeSelect: { prop: 'operation', kinds: ['call', 'get'] },
  FileUpload: { prop: 'operation', kinds: ['upload'] },
  TemplateForm: { prop: 'operation', kinds: ['call'] },
};
