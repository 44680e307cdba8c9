// A server's Markdown (a tool's description) shown as what it means, safely: a small subset —
// paragraphs, lists, fenced code, headings as bold lines, `code`, **bold**, *emphasis* and links —
// built as elements from text, never as HTML. HTML written in it stays visible text; a link is a
// link only to http(s) or mailto (a `javascript:` or `data:` one is its text), opens in a new tab
// and tells that page nothing of this one. Every text goes through serverText, as the rest of a
// server's words do.
import type { ComponentChildren } from 'preact';
import { serverText } from './text.js';

export function Markdown({ text, class: className }: { text: string; class?: string }) {
  return (
    <div class={className === undefined ? 'markdown' : `markdown ${className}`}>
      {blocks(serverText(text))}
    </div>
  );
}

type Block =
  | { readonly kind: 'paragraph' | 'heading'; readonly text: string }
  | { readonly kind: 'list'; readonly ordered: boolean; readonly items: readonly string[] }
  | { readonly kind: 'code'; readonly text: string };

const FENCE = /^\s*(```|~~~)/;
const ITEM = /^\s*(?:([-*+])|(\d{1,9})[.)])\s+(.*)$/;
const HEADING = /^\s*#{1,6}\s+(.*?)\s*#*\s*$/;

function blocks(text: string): ComponentChildren[] {
  return parse(text.split(/\r?\n/)).map(element);
}

function element(block: Block, i: number): ComponentChildren {
  switch (block.kind) {
    case 'paragraph':
      return <p key={i}>{inline(block.text)}</p>;
    case 'heading':
      return (
        <p key={i}>
          <strong>{inline(block.text)}</strong>
        </p>
      );
    case 'code':
      return (
        <pre key={i}>
          <code>{block.text}</code>
        </pre>
      );
    case 'list': {
      const items = block.items.map((item, j) => <li key={j}>{inline(item)}</li>);
      return block.ordered ? <ol key={i}>{items}</ol> : <ul key={i}>{items}</ul>;
    }
  }
}

function parse(lines: readonly string[]): Block[] {
  const out: Block[] = [];
  let paragraph: string[] = [];
  const endParagraph = () => {
    // Its lines stay lines (shown with white-space: pre-line): a tool's plain-text description
    // breaks its lines where it means to.
    if (paragraph.length > 0) out.push({ kind: 'paragraph', text: paragraph.join('\n') });
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const fence = FENCE.exec(line);
    if (fence !== null) {
      endParagraph();
      const code: string[] = [];
      for (
        i++;
        i < lines.length && !(lines[i] as string).trim().startsWith(fence[1] as string);
        i++
      ) {
        code.push(lines[i] as string);
      }
      out.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    const item = ITEM.exec(line);
    if (line.trim() === '') endParagraph();
    else if (heading !== null) {
      endParagraph();
      out.push({ kind: 'heading', text: heading[1] as string });
    } else if (item !== null) {
      endParagraph();
      const ordered = item[2] !== undefined;
      const last = out.at(-1);
      if (last?.kind === 'list' && last.ordered === ordered) {
        out[out.length - 1] = { ...last, items: [...last.items, item[3] as string] };
      } else out.push({ kind: 'list', ordered, items: [item[3] as string] });
    } else {
      const last = out.at(-1);
      // A line under a list item, not after a blank line, continues the item.
      if (paragraph.length === 0 && last?.kind === 'list' && /^\s+/.test(line)) {
        const items = [...last.items];
        items[items.length - 1] = `${items.at(-1)} ${line.trim()}`;
        out[out.length - 1] = { ...last, items };
      } else paragraph.push(line.trim());
    }
  }
  endParagraph();
  return out;
}

// `code`, **strong** (or __strong__), *em* (or _em_), [text](url): the first that starts earliest.
const INLINE =
  /`([^`]+)`|\*\*(.+?)\*\*|__(.+?)__|\*([^*\s][^*]*?)\*|\b_([^_\s][^_]*?)_\b|\[([^\]]+)\]\(([^)\s]+)\)/;
const SAFE_LINK = /^(?:https?:\/\/|mailto:)/i;

function inline(text: string): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let rest = text;
  while (rest !== '') {
    const found = INLINE.exec(rest);
    if (found === null) {
      out.push(rest);
      break;
    }
    if (found.index > 0) out.push(rest.slice(0, found.index));
    const [whole, code, strong, strong2, em, em2, label, href] = found;
    const key = out.length;
    if (code !== undefined) out.push(<code key={key}>{code}</code>);
    else if (strong !== undefined || strong2 !== undefined) {
      out.push(<strong key={key}>{inline((strong ?? strong2) as string)}</strong>);
    } else if (em !== undefined || em2 !== undefined) {
      out.push(<em key={key}>{inline((em ?? em2) as string)}</em>);
    } else if (label !== undefined && href !== undefined && SAFE_LINK.test(href)) {
      out.push(
        <a key={key} href={href} target="_blank" rel="noopener noreferrer nofollow">
          {inline(label)}
        </a>,
      );
    } else out.push(whole);
    rest = rest.slice(found.index + whole.length);
  }
  return out;
}
