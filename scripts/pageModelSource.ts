// What a page file may say before it is composed (renderers/schema/compose.ts), in JSON Schema:
// the reuse syntax ($ref to a fragment, $param of a page parameter, `parameters`), a list column's
// `search`, the rule that a page without an entity titles its columns, and the typed Formily parts
// (a list's filter form around its fields, a form's fields) that renderers/schema/types.ts leaves
// open; a filter field itself is the model's (FilterField, @def filterField). scripts/pageModel.ts
// adds these to the definitions it generates from the TypeScript model; nothing here repeats it.

type Json = Record<string, unknown>;

export const PAGE_SCHEMA_ID = 'https://iot-console.local/schemas/page.schema.json';

/** The definitions of the source layer (the reuse syntax, the typed Formily parts). */
/** A definition, or a reuse of a fragment or a page parameter in its place. */
const orReuse = (definition: string): Json => ({ if: { $ref: '#/$defs/isReuse' }, then: { $ref: '#/$defs/reuse' }, else: { $ref: `#/$defs/${definition}` } });

export function sourceDefinitions(): Record<string, Json> {
  return {
    fragmentRef: {
      type: 'object',
      required: ['$ref'],
      properties: {
        $ref: {
          type: 'string',
          pattern: '^[^#]*(#(/.*)?)?$',
          description: '片段引用：相对本文件的路径加 JSON 指针，如 ../../fragments/columns.json#/createTime；构建时换成所指的值。旁边的属性覆盖片段的同名属性；数组项引用一个数组时展开到该处。',
        },
      },
      description: '片段引用（$ref）：在 schemas/fragments 中写一次，各页面引用。',
    },
    param: {
      type: 'object',
      required: ['$param'],
      additionalProperties: false,
      properties: {
        $param: {
          type: 'string',
          minLength: 1,
          description: '页面参数名（取打开页面时给的值）或 parameters 中为该取值声明的常量名；常量为 null 时去掉所在的属性或数组项，数组常量在数组中展开。',
        },
      },
      description: '页面参数（$param）：菜单的视图引用或 openForm 的 page 给出，如 feedback/list?feedbackType=app。',
    },
    isReuse: {
      type: 'object',
      anyOf: [
        {
          required: ['$ref'],
        },
        {
          required: ['$param'],
        },
      ],
    },
    reuse: {
      oneOf: [
        {
          $ref: '#/$defs/fragmentRef',
        },
        {
          $ref: '#/$defs/param',
        },
      ],
    },
    columnOrReuse: {
      if: {
        $ref: '#/$defs/isReuse',
      },
      then: {
        $ref: '#/$defs/reuse',
      },
      else: {
        $ref: '#/$defs/column',
        required: ['title'],
      },
    },
    entityColumnOrReuse: { description: '列表列或详情字段：页面写了 entity 时标题可取自实体的字段，否则要写 title。', ...orReuse('column') },
    titled: {
      description: '没有 entity 的页面：列与字段要写 title。',
      if: {
        $ref: '#/$defs/isReuse',
      },
      else: {
        required: ['title'],
      },
    },
    actionOrReuse: orReuse('action'),
    filterFieldOrReuse: orReuse('filterField'),
    sectionOrReuse: orReuse('section'),
    widgetOrReuse: orReuse('widget'),
    filterForm: {
      type: 'object',
      required: ['type'],
      properties: {
        type: {
          const: 'object',
          description: '固定为 object。',
        },
        properties: {
          type: 'object',
          additionalProperties: {
            $ref: '#/$defs/filterFieldOrReuse',
          },
          description: '筛选字段，按书写顺序显示（收起时显示前 3 个）；列上 search 推出的字段在前（按列的顺序），或按 order。',
        },
        order: {
          type: 'array',
          items: {
            type: 'string',
          },
          uniqueItems: true,
          description: '筛选字段的顺序（列上 search 推出的与 properties 中写出的一起排），缺省时推出的在前。',
        },
      },
      description:
        '筛选表单（type 为 object，字段在 properties 中）。列表页用 antd 表单渲染筛选，不加载 Formily：字段只可用 filterField 列出的组件。 列上写 search: true 时由列推出筛选字段，不必在此重写。',
    },
    formSchema: {
      type: 'object',
      required: ['type', 'properties'],
      properties: {
        type: {
          const: 'object',
          description: '固定为 object。',
        },
        properties: {
          type: 'object',
          additionalProperties: {
            $ref: 'names.schema.json#/$defs/formField',
          },
          description: '字段。表单页写了 entity 时，实体的字段写 {} 即可：标题、必填、长度、正则与提示、命名校验器、字典选择与控件取自实体，写出的属性覆盖它们。',
        },
      },
      description: 'Formily JSON Schema（type 为 object，字段在 properties 中；x-component 为已注册组件，x-validator 可引用命名校验器）。',
    },
    parameters: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: {
          type: 'object',
          description: '该取值下的常量：名称 → 值，页面中以 { "$param": "名称" } 引用。',
        },
        description: '参数的取值 → 常量。',
      },
      description: '页面参数：参数名 → 取值 → 常量。视图引用给出取值（菜单的视图文件 feedback/list?feedbackType=app、openForm 的 page），一个页面文件服务几个菜单。',
    },
  };
}

/** Properties a page file may have that composing removes (the renderers never see them). */
export function sourceProperties(): Record<string, Json> {
  const parameters = { $ref: '#/$defs/parameters' };
  return {
    listPage: { parameters },
    formPage: { parameters },
    detailPage: { parameters },
    dashboardPage: { parameters },
    column: {
      search: {
        anyOf: [
          {
            type: 'boolean',
          },
          {
            type: 'object',
          },
        ],
        description:
          '列表页：由本列推出筛选字段（ProTable 的方式）。字典、标签、布尔列（有 dictType）→ DictSelect；datetime → 时间范围（带 timeRange 校验）；文本列 → Input。写成对象时叠加到推出的字段上（如 { "title": "状态" }、{ "x-component-props": { "placeholder": "…" } }）。',
      },
    },
  };
}

/** A page without an entity titles its columns and fields (with one, they take the entity's titles). */
export function sourceRules(): Record<string, Json> {
  return {
    listPage: {
      if: {
        not: {
          required: ['entity'],
        },
      },
      then: {
        properties: {
          columns: {
            items: {
              $ref: '#/$defs/titled',
            },
          },
        },
      },
    },
    detailPage: {
      if: {
        not: {
          required: ['entity'],
        },
      },
      then: {
        properties: {
          sections: {
            items: {
              if: {
                $ref: '#/$defs/isReuse',
              },
              else: {
                properties: {
                  fields: {
                    items: {
                      $ref: '#/$defs/titled',
                    },
                  },
                  columns: {
                    items: {
                      $ref: '#/$defs/titled',
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  };
}
