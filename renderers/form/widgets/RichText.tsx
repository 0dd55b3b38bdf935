import {
  BoldOutlined,
  CodeOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  RedoOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { Image } from '@tiptap/extension-image';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import { StarterKit } from '@tiptap/starter-kit';
import { Button, Input, Popover, Space, Tooltip, theme } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * Markup typed or pasted as text (`<p>…</p>`): read as HTML, the way a person pasting the source
 * of a notice means it, rather than shown as tags.
 */
const MARKUP = /<\/?[a-z][a-z0-9]*(\s[^>]*)?\/?>/i;
export function looksLikeMarkup(text: string): boolean {
  return text.length > 2 && MARKUP.test(text);
}

/** An empty document is an empty value (required rules see it as empty). */
export function htmlOf(editor: Editor): string {
  return editor.isEmpty ? '' : editor.getHTML();
}

export interface RichTextProps {
  value?: string;
  onChange?: (html: string) => void;
  disabled?: boolean;
  readOnly?: boolean;
  /** The field's accessible name (its title). */
  'aria-label'?: string;
  /** Editing area height in rows of text. */
  rows?: number;
  maxLength?: number;
}

/**
 * A rich text editor for the HTML fields (商品详情, 消息正文): Tiptap with only what the server's
 * sanitiser keeps (paragraphs, bold, italic, underline, headings 3 and 4, lists, quotes, links,
 * images), a toolbar of labelled buttons, and a 源码 mode for the HTML itself. The server still
 * sanitises whatever arrives. Loaded only by forms that use it (formily.tsx: lazyWidget).
 */
export function RichText({ value, onChange, disabled, readOnly, 'aria-label': label, rows = 8, maxLength }: RichTextProps) {
  const { token } = theme.useToken();
  const [source, setSource] = useState(false);
  const [focused, setFocused] = useState(false);
  const emitted = useRef<string | undefined>(value);
  const latestChange = useRef(onChange);
  useEffect(() => {
    latestChange.current = onChange;
  });
  const editable = !disabled && !readOnly;
  const emit = (html: string) => {
    const next = maxLength ? html.slice(0, maxLength) : html;
    emitted.current = next;
    latestChange.current?.(next);
  };

  const editorRef = useRef<Editor | null>(null);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({ heading: { levels: [3, 4] }, code: false, codeBlock: false, strike: false, horizontalRule: false, link: { openOnClick: false, autolink: true } }),
      Image,
    ],
    content: value ?? '',
    editable,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        ...(label ? { 'aria-label': label } : {}),
        style: `min-height:${rows * 22}px; padding:4px 11px; outline:none;`,
      },
      handleTextInput: (_view, from, to, text) => {
        if (!looksLikeMarkup(text) || !editorRef.current) return false;
        editorRef.current.chain().insertContentAt({ from, to }, text).run();
        return true;
      },
      handlePaste: (_view, event) => {
        const text = event.clipboardData?.getData('text/plain') ?? '';
        if (event.clipboardData?.getData('text/html') || !looksLikeMarkup(text) || !editorRef.current) return false;
        editorRef.current.chain().insertContent(text).run();
        return true;
      },
    },
    onUpdate: ({ editor: current }) => emit(htmlOf(current)),
    onFocus: () => setFocused(true),
    onBlur: () => setFocused(false),
  });
  useEffect(() => {
    editorRef.current = editor;
  }, [editor]);

  // A value set from outside (the record loaded, the form reset) replaces the document.
  useEffect(() => {
    if (!editor || value === emitted.current) return;
    emitted.current = value;
    editor.commands.setContent(value ?? '', { emitUpdate: false });
  }, [editor, value]);
  useEffect(() => {
    editor?.setEditable(editable);
  }, [editor, editable]);

  const active = useEditorState({
    editor,
    selector: ({ editor: current }) =>
      current
        ? {
            bold: current.isActive('bold'),
            italic: current.isActive('italic'),
            underline: current.isActive('underline'),
            h3: current.isActive('heading', { level: 3 }),
            h4: current.isActive('heading', { level: 4 }),
            bulletList: current.isActive('bulletList'),
            orderedList: current.isActive('orderedList'),
            blockquote: current.isActive('blockquote'),
            link: current.isActive('link'),
            canUndo: current.can().undo(),
            canRedo: current.can().redo(),
          }
        : null,
  });

  const tool = (key: string, name: string, icon: ReactNode, on: boolean | undefined, run: (e: Editor) => void, enabled = true, hint = name) => (
    <Tooltip key={key} title={hint}>
      <Button
        size="small"
        type={on ? 'primary' : 'text'}
        ghost={on}
        icon={icon}
        aria-label={name}
        aria-pressed={on}
        disabled={!editable || source || !editor || !enabled}
        onClick={() => editor && run(editor)}
      />
    </Tooltip>
  );

  return (
    <div
      data-testid="rich-text"
      style={{
        border: `1px solid ${focused ? token.colorPrimary : token.colorBorder}`,
        borderRadius: token.borderRadius,
        background: editable ? token.colorBgContainer : token.colorBgContainerDisabled,
      }}
    >
      <Space size={2} wrap style={{ padding: '4px 6px', borderBottom: `1px solid ${token.colorBorderSecondary}`, width: '100%' }} role="toolbar" aria-label="格式工具">
        {tool('bold', '加粗', <BoldOutlined />, active?.bold, (e) => e.chain().focus().toggleBold().run())}
        {tool('italic', '斜体', <ItalicOutlined />, active?.italic, (e) => e.chain().focus().toggleItalic().run())}
        {tool('underline', '下划线', <UnderlineOutlined />, active?.underline, (e) => e.chain().focus().toggleUnderline().run())}
        {/* Named 章节 / 小节, not 标题: a form's own 标题 field keeps its label to itself. */}
        {tool('h3', '章节', <span style={{ fontWeight: 600 }}>H3</span>, active?.h3, (e) => e.chain().focus().toggleHeading({ level: 3 }).run(), true, '章节标题（H3）')}
        {tool('h4', '小节', <span style={{ fontWeight: 600 }}>H4</span>, active?.h4, (e) => e.chain().focus().toggleHeading({ level: 4 }).run(), true, '小节标题（H4）')}
        {tool('bullet', '无序列表', <UnorderedListOutlined />, active?.bulletList, (e) => e.chain().focus().toggleBulletList().run())}
        {tool('ordered', '有序列表', <OrderedListOutlined />, active?.orderedList, (e) => e.chain().focus().toggleOrderedList().run())}
        {tool('quote', '引用', <span style={{ fontWeight: 600 }}>“</span>, active?.blockquote, (e) => e.chain().focus().toggleBlockquote().run())}
        <LinkTool editor={editor} disabled={!editable || source} active={active?.link} />
        {tool('undo', '撤销', <UndoOutlined />, false, (e) => e.chain().focus().undo().run(), active?.canUndo)}
        {tool('redo', '重做', <RedoOutlined />, false, (e) => e.chain().focus().redo().run(), active?.canRedo)}
        <Tooltip title={source ? '回到编辑' : '查看和编辑 HTML 源码'}>
          <Button size="small" type={source ? 'primary' : 'text'} icon={<CodeOutlined />} aria-pressed={source} disabled={!editable} onClick={() => setSource((on) => !on)}>
            源码
          </Button>
        </Tooltip>
      </Space>
      {source ? (
        <Input.TextArea
          aria-label={label ? `${label}（HTML 源码）` : 'HTML 源码'}
          variant="borderless"
          rows={rows}
          maxLength={maxLength}
          value={value ?? ''}
          onChange={(event) => {
            emit(event.target.value);
            editor?.commands.setContent(event.target.value, { emitUpdate: false });
          }}
        />
      ) : (
        <EditorContent editor={editor} className="rich-text-content" />
      )}
    </div>
  );
}

/** 链接: the selection becomes a link to the address given (empty removes the link). */
function LinkTool({ editor, disabled, active }: { editor: Editor | null; disabled: boolean; active: boolean | undefined }) {
  const [open, setOpen] = useState(false);
  const [href, setHref] = useState('');
  const apply = () => {
    if (!editor) return;
    const chain = editor.chain().focus().extendMarkRange('link');
    if (href.trim()) chain.setLink({ href: href.trim(), target: '_blank' }).run();
    else chain.unsetLink().run();
    setOpen(false);
  };
  return (
    <Popover
      open={open}
      trigger="click"
      onOpenChange={(next) => {
        if (next) setHref((editor?.getAttributes('link').href as string | undefined) ?? 'https://');
        setOpen(next);
      }}
      content={
        <Space.Compact>
          <Input aria-label="链接地址" value={href} onChange={(event) => setHref(event.target.value)} onPressEnter={apply} style={{ width: 240 }} />
          <Button type="primary" onClick={apply}>
            确定
          </Button>
        </Space.Compact>
      }
    >
      <Tooltip title="链接">
        <Button size="small" type={active ? 'primary' : 'text'} ghost={active} icon={<LinkOutlined />} aria-label="链接" aria-pressed={active} disabled={disabled || !editor} />
      </Tooltip>
    </Popover>
  );
}
