// The rich-text field of a form (x-widget 'richtext', a richtext component's HTML): tiptap's
// editor with a small toolbar. What it loads and what it hands back both pass sanitizeHtml, so the
// stored HTML is always what the board will show.
import { BoldOutlined, ItalicOutlined, LinkOutlined, OrderedListOutlined, UnorderedListOutlined, DisconnectOutlined } from '@ant-design/icons';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Input, Space, Tooltip } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isAllowedLinkUrl, sanitizeHtml } from './sanitizeHtml.ts';
import './richText.css';

export interface RichTextInputProps {
  id?: string;
  value?: string;
  onChange?: (html: string) => void;
  label: string;
  maxLength?: number;
}

export default function RichTextInput({ id, value, onChange, label, maxLength }: RichTextInputProps) {
  const { t } = useTranslation();
  const [link, setLink] = useState('');
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: false, autolink: false, isAllowedUri: (url) => isAllowedLinkUrl(url) } })],
    content: sanitizeHtml(value),
    editorProps: { attributes: { id: id ?? '', 'aria-label': label, role: 'textbox', 'aria-multiline': 'true', class: 'rich-text-editor rich-text' } },
    onUpdate: ({ editor: current }) => onChange?.(sanitizeHtml(current.getHTML())),
  });
  const active = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive('bold'), italic: current.isActive('italic'), heading: current.isActive('heading', { level: 2 }),
      bullets: current.isActive('bulletList'), numbers: current.isActive('orderedList'), link: current.isActive('link'),
    }),
  });
  const tool = (name: string, icon: ReactNode, pressed: boolean, run: () => void) => (
    <Tooltip title={t(`boards.richText.${name}`)}>
      <Button size="small" type={pressed ? 'primary' : 'default'} icon={icon} aria-label={t(`boards.richText.${name}`)} aria-pressed={pressed}
        onClick={run} onMouseDown={(event) => event.preventDefault()} />
    </Tooltip>
  );
  const linkAllowed = isAllowedLinkUrl(link.trim());
  const length = value?.length ?? 0;
  return (
    <div className="rich-text-input" data-testid="rich-text-input">
      <Space wrap size={4} className="rich-text-toolbar" role="toolbar" aria-label={t('boards.richText.toolbar')}>
        {tool('bold', <BoldOutlined />, active.bold, () => editor.chain().focus().toggleBold().run())}
        {tool('italic', <ItalicOutlined />, active.italic, () => editor.chain().focus().toggleItalic().run())}
        <Button size="small" type={active.heading ? 'primary' : 'default'} aria-pressed={active.heading} onMouseDown={(event) => event.preventDefault()}
          onClick={() => editor.chain().focus().toggleHeading({ level: 2 }).run()}>{t('boards.richText.heading')}</Button>
        {tool('bullets', <UnorderedListOutlined />, active.bullets, () => editor.chain().focus().toggleBulletList().run())}
        {tool('numbers', <OrderedListOutlined />, active.numbers, () => editor.chain().focus().toggleOrderedList().run())}
        <Space.Compact size="small">
          <Input size="small" value={link} onChange={(event) => setLink(event.target.value)} placeholder="https://…" aria-label={t('boards.richText.linkUrl')}
            status={link.trim() && !linkAllowed ? 'error' : undefined} style={{ width: 200 }} />
          <Button size="small" icon={<LinkOutlined />} disabled={!linkAllowed} onClick={() => {
            editor.chain().focus().extendMarkRange('link').setLink({ href: link.trim() }).run();
            setLink('');
          }}>{t('boards.richText.link')}</Button>
        </Space.Compact>
        {active.link && tool('unlink', <DisconnectOutlined />, false, () => editor.chain().focus().extendMarkRange('link').unsetLink().run())}
      </Space>
      <EditorContent editor={editor} />
      {maxLength !== undefined && length > maxLength && <div className="ant-form-item-explain-error" role="alert">{t('boards.richText.tooLong', { max: maxLength })}</div>}
    </div>
  );
}
