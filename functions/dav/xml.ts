/**
 * A small namespace-aware XML reader for WebDAV request bodies (PROPFIND, PROPPATCH, LOCK): the Worker
 * has no DOMParser, and these bodies are small. Elements keep their namespace URI, attributes, children
 * and text; `raw` is the element's source text, so a dead property can be stored and returned as sent.
 */
export interface XmlElement {
  ns: string;
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
  /** The in-scope prefix → URI map at this element (for re-serialising a stored property). */
  scope: Record<string, string>;
  raw: string;
}

export class XmlError extends Error {}

const entities: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) => {
    if (e[0] === "#") return String.fromCodePoint(e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)));
    if (e in entities) return entities[e];
    throw new XmlError(`unknown entity ${m}`);
  });

export const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const nameRe = /^[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?$/;

/**
 * How deep elements may nest. WebDAV bodies and the dead properties they carry are a few levels deep; the
 * reader descends recursively, and a body of 20,000 nested elements would otherwise exhaust the stack.
 */
export const maxXmlDepth = 100;

/** Parses a document; throws XmlError on anything not well-formed or nested too deep (the caller answers 400). */
export function parseXml(source: string): XmlElement {
  let pos = 0;
  const src = source.replace(/^\uFEFF/, "");
  const skipMisc = () => {
    for (;;) {
      const ws = /^\s*/.exec(src.slice(pos))![0].length;
      pos += ws;
      if (src.startsWith("<?", pos)) pos = must(src.indexOf("?>", pos)) + 2;
      else if (src.startsWith("<!--", pos)) pos = must(src.indexOf("-->", pos)) + 3;
      else if (src.startsWith("<!DOCTYPE", pos)) throw new XmlError("DOCTYPE is not accepted");
      else return;
    }
  };
  const must = (i: number) => {
    if (i < 0) throw new XmlError("unexpected end");
    return i;
  };
  const element = (parentScope: Record<string, string>, depth: number): XmlElement => {
    if (depth > maxXmlDepth) throw new XmlError(`elements nested deeper than ${maxXmlDepth}`);
    const start = pos;
    const open = /^<([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/.exec(src.slice(pos));
    if (!open) throw new XmlError(`bad tag at ${pos}`);
    pos += open[0].length;
    const [, qname, attrText, selfClosing] = open;
    if (!nameRe.test(qname)) throw new XmlError(`bad name ${qname}`);
    const scope = { ...parentScope };
    const rawAttrs: [string, string][] = [];
    for (const m of attrText.matchAll(/([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
      const [k, v] = [m[1], decode(m[2] ?? m[3] ?? "")];
      if (k === "xmlns") scope[""] = v;
      else if (k.startsWith("xmlns:")) {
        if (v === "") throw new XmlError("empty namespace prefix binding");
        scope[k.slice(6)] = v;
      } else rawAttrs.push([k, v]);
    }
    const resolve = (q: string, isAttr: boolean) => {
      const i = q.indexOf(":");
      if (i < 0) return { ns: isAttr ? "" : (scope[""] ?? ""), name: q };
      const prefix = q.slice(0, i);
      if (prefix === "xml") return { ns: "http://www.w3.org/XML/1998/namespace", name: q.slice(i + 1) };
      if (!(prefix in scope)) throw new XmlError(`unbound prefix ${prefix}`);
      return { ns: scope[prefix], name: q.slice(i + 1) };
    };
    const { ns, name } = resolve(qname, false);
    const attrs: Record<string, string> = {};
    for (const [k, v] of rawAttrs) {
      const r = resolve(k, true);
      attrs[r.ns ? `{${r.ns}}${r.name}` : r.name] = v;
    }
    const el: XmlElement = { ns, name, attrs, children: [], text: "", scope, raw: "" };
    if (!selfClosing) {
      for (;;) {
        const lt = must(src.indexOf("<", pos));
        el.text += decode(src.slice(pos, lt));
        pos = lt;
        if (src.startsWith("</", pos)) {
          const close = /^<\/([^\s>]+)\s*>/.exec(src.slice(pos));
          if (!close || close[1] !== qname) throw new XmlError(`mismatched </${close?.[1]}>`);
          pos += close[0].length;
          break;
        }
        if (src.startsWith("<!--", pos)) pos = must(src.indexOf("-->", pos)) + 3;
        else if (src.startsWith("<![CDATA[", pos)) {
          const end = must(src.indexOf("]]>", pos));
          el.text += src.slice(pos + 9, end);
          pos = end + 3;
        } else if (src.startsWith("<?", pos)) pos = must(src.indexOf("?>", pos)) + 2;
        else el.children.push(element(scope, depth + 1));
      }
    }
    el.raw = src.slice(start, pos);
    return el;
  };
  skipMisc();
  if (src[pos] !== "<") throw new XmlError("no root element");
  const root = element({}, 1);
  skipMisc();
  if (pos !== src.length) throw new XmlError("content after the root element");
  return root;
}

export const DAV = "DAV:";
export const child = (el: XmlElement, ns: string, name: string) => el.children.find((c) => c.ns === ns && c.name === name);

/**
 * An element as standalone XML: its own tag rewritten with explicit namespace declarations for every
 * prefix in scope, so a stored dead property reads the same wherever it is later returned.
 */
export function standalone(el: XmlElement): string {
  const decls = Object.entries(el.scope)
    .map(([p, uri]) => (p === "" ? ` xmlns="${escapeXml(uri)}"` : ` xmlns:${p}="${escapeXml(uri)}"`))
    .join("");
  return el.raw.replace(/^<([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)/, (_m, q: string, attrs: string) => {
    const kept = attrs.replace(/\s+xmlns(?::[^\s=]+)?\s*=\s*(?:"[^"]*"|'[^']*')/g, "");
    return `<${q}${decls}${kept}`;
  });
}
