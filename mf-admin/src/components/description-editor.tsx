import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';

interface DescriptionEditorProps {
  initialHtml: string;
  onChange: (html: string) => void;
  /** id of the visible label that names the editable area. */
  labelId: string;
  /** id of the area's description (e.g. which toolbar it has). */
  describedBy?: string;
}

// Only what the API's sanitiser keeps (headings, paragraphs, emphasis, lists, quotes, links), so
// what the admin sees here is what the shop shows.
const extensions = [
  StarterKit.configure({
    heading: { levels: [2, 3] },
    code: false,
    codeBlock: false,
    horizontalRule: false,
    // It keeps an empty paragraph after a final list or heading, which would be stored as <p></p>.
    trailingNode: false,
    link: { openOnClick: false, HTMLAttributes: { target: null, rel: 'noopener noreferrer' } },
  }),
];

function ToolbarButton({ label, pressed, onPress }: { label: string; pressed: boolean; onPress: () => void }) {
  return (
    <button
      type="button"
      className="admin-editor__tool"
      aria-pressed={pressed}
      // Keeps the editor's selection: the command then applies to the text the admin selected.
      onMouseDown={(event) => event.preventDefault()}
      onClick={onPress}
    >
      {label}
    </button>
  );
}

function Toolbar({ editor }: { editor: Editor }) {
  const active = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive('bold'),
      italic: current.isActive('italic'),
      heading: current.isActive('heading', { level: 2 }),
      bulletList: current.isActive('bulletList'),
    }),
  });
  return (
    <div className="admin-editor__toolbar" role="group" aria-label="Text formatting">
      <ToolbarButton label="Bold" pressed={active.bold} onPress={() => editor.chain().focus().toggleBold().run()} />
      <ToolbarButton label="Italic" pressed={active.italic} onPress={() => editor.chain().focus().toggleItalic().run()} />
      <ToolbarButton label="Heading" pressed={active.heading} onPress={() => editor.chain().focus().toggleHeading({ level: 2 }).run()} />
      <ToolbarButton label="Bullet list" pressed={active.bulletList} onPress={() => editor.chain().focus().toggleBulletList().run()} />
    </div>
  );
}

/** The rich-text description (TipTap). Loaded lazily: only the admin's product form needs it. */
export default function DescriptionEditor({ initialHtml, onChange, labelId, describedBy }: DescriptionEditorProps) {
  const editor = useEditor({
    extensions,
    // TipTap would add its base rules as an inline <style>, which the shop's CSP refuses; they
    // are in styles.css instead ("TipTap base rules").
    injectCSS: false,
    content: initialHtml,
    editorProps: {
      attributes: {
        class: 'admin-editor__content',
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelId,
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      },
    },
    // An empty editor still holds "<p></p>"; the product then has no description at all.
    onUpdate: ({ editor: current }) => onChange(current.isEmpty ? '' : current.getHTML()),
  });

  return (
    <div className="admin-editor">
      <Toolbar editor={editor} />
      <EditorContent editor={editor} />
    </div>
  );
}
