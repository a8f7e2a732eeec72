//! PAL's DESCRIPTIONs (HTML in CDATA) as the pack's rich text: paragraphs, lists, strong text and links
//! ([`Block`], [`Inline`]), never markup. `<BR>`, `<P>` and `<DIV>` end a paragraph; `<UL>`/`<OL>` with
//! `<LI>` make a list; `<B>`/`<STRONG>` strong text; `<A HREF>` a link when the address is http or
//! https (else its text only); `<SCRIPT>` and `<STYLE>` are dropped with their content; every other
//! tag is dropped and its text kept; entities decoded; white space collapsed. Hand-written rather than an
//! HTML crate: PAL's descriptions use a dozen tags, and the output keeps only text.

use crate::analysis::pack::{safe_url, Block, Inline, Reference};

#[derive(Default)]
struct Builder {
    blocks: Vec<Block>,
    para: Vec<Inline>,
    list: Option<Vec<Vec<Inline>>>,
    item: Vec<Inline>,
    in_item: bool,
    strong: usize,
    link: Option<(String, String)>,
}

impl Builder {
    fn target(&mut self) -> &mut Vec<Inline> {
        if self.list.is_some() && self.in_item {
            &mut self.item
        } else {
            &mut self.para
        }
    }

    fn text(&mut self, raw: &str) {
        let t = decode(raw);
        let t = collapse(&t);
        if t.is_empty() {
            return;
        }
        if let Some((_, text)) = &mut self.link {
            text.push_str(&t);
            return;
        }
        let strong = self.strong > 0;
        // Bare addresses in the text (PAL writes many references so) become links.
        let mut rest = t.as_str();
        while let Some(at) = find_url(rest) {
            let end = rest[at..]
                .find(char::is_whitespace)
                .map_or(rest.len(), |e| at + e);
            let url = rest[at..end].trim_end_matches(['.', ',', ')', ';', ':']);
            let before = &rest[..at];
            if !before.is_empty() {
                let piece = before.to_string();
                push(
                    self.target(),
                    if strong {
                        Inline::Strong { strong: piece }
                    } else {
                        Inline::Text(piece)
                    },
                );
            }
            push(
                self.target(),
                Inline::Link {
                    link: url.to_string(),
                    text: url.to_string(),
                },
            );
            rest = &rest[at + url.len()..];
        }
        if !rest.is_empty() {
            let piece = rest.to_string();
            push(
                self.target(),
                if strong {
                    Inline::Strong { strong: piece }
                } else {
                    Inline::Text(piece)
                },
            );
        }
    }

    fn end_paragraph(&mut self) {
        let p = tidy(std::mem::take(&mut self.para));
        if !p.is_empty() {
            self.blocks.push(Block::Paragraph(p));
        }
    }

    fn end_item(&mut self) {
        let it = tidy(std::mem::take(&mut self.item));
        if let (Some(list), false) = (&mut self.list, it.is_empty()) {
            list.push(it);
        }
        self.in_item = false;
    }

    fn end_list(&mut self) {
        self.end_item();
        if let Some(list) = self.list.take() {
            if !list.is_empty() {
                self.blocks.push(Block::List(list));
            }
        }
    }

    fn end_link(&mut self) {
        if let Some((href, text)) = self.link.take() {
            let text = text.trim().to_string();
            let inline = if safe_url(&href) {
                Inline::Link {
                    text: if text.is_empty() { href.clone() } else { text },
                    link: href,
                }
            } else if text.is_empty() {
                return;
            } else {
                Inline::Text(text)
            };
            push(self.target(), inline);
        }
    }
}

/// Where an http or https address starts in `s`, at a word's start.
fn find_url(s: &str) -> Option<usize> {
    let lower = s.to_ascii_lowercase();
    let mut from = 0;
    while let Some(i) = lower[from..].find("http") {
        let at = from + i;
        let starts_word = at == 0 || lower.as_bytes()[at - 1].is_ascii_whitespace();
        if starts_word
            && (lower[at..].starts_with("http://") || lower[at..].starts_with("https://"))
        {
            return Some(at);
        }
        from = at + 4;
    }
    None
}

/// Appends, joining text to text (and strong to strong), so `a <I>b</I> c` is one piece of text.
fn push(list: &mut Vec<Inline>, i: Inline) {
    match (list.last_mut(), &i) {
        (Some(Inline::Text(a)), Inline::Text(b)) => join(a, b),
        (Some(Inline::Strong { strong: a }), Inline::Strong { strong: b }) => join(a, b),
        _ => list.push(i),
    }
}

fn join(a: &mut String, b: &str) {
    a.push_str(b);
}

/// Leading and trailing spaces of a paragraph or item dropped, empty pieces out.
fn tidy(mut v: Vec<Inline>) -> Vec<Inline> {
    let trim = |i: &mut Inline, start: bool| {
        if let Inline::Text(t) | Inline::Strong { strong: t } = i {
            *t = if start {
                t.trim_start().to_string()
            } else {
                t.trim_end().to_string()
            };
        }
    };
    if let Some(f) = v.first_mut() {
        trim(f, true);
    }
    if let Some(l) = v.last_mut() {
        trim(l, false);
    }
    v.retain(|i| !matches!(i, Inline::Text(t) | Inline::Strong { strong: t } if t.is_empty()));
    v
}

fn collapse(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.chars() {
        if c.is_whitespace() {
            space = true;
        } else {
            if space {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
    }
    if space {
        out.push(' ');
    }
    out
}

/// The entities PAL's files use, and numeric ones.
fn decode(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let end = after.find(';').filter(|&e| e <= 10);
        let decoded = end.and_then(|e| {
            let name = &after[..e];
            let c = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "nbsp" => Some(' '),
                _ => name
                    .strip_prefix("#x")
                    .or_else(|| name.strip_prefix("#X"))
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                    .or_else(|| name.strip_prefix('#').and_then(|d| d.parse().ok()))
                    .and_then(char::from_u32),
            };
            c.map(|c| (c, e))
        });
        match decoded {
            Some((c, e)) => {
                out.push(c);
                rest = &after[e + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The `HREF` of a tag's attribute text.
fn href(attrs: &str) -> Option<String> {
    let lower = attrs.to_ascii_lowercase();
    let p = lower.find("href")?;
    let rest = attrs[p + 4..].trim_start().strip_prefix('=')?.trim_start();
    let url = match rest.chars().next()? {
        q @ ('"' | '\'') => rest[1..].split(q).next()?,
        _ => rest.split(|c: char| c.is_whitespace() || c == '>').next()?,
    };
    Some(decode(url.trim()))
}

/// PAL's DESCRIPTION HTML as blocks.
pub fn blocks(html: &str) -> Vec<Block> {
    let mut b = Builder::default();
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        b.text(&rest[..lt]);
        let after = &rest[lt + 1..];
        // A tag never closed runs to the end of the text (whose last character may be several bytes).
        let (inner, next) = after.split_once('>').unwrap_or((after, ""));
        let closing = inner.starts_with('/');
        let name: String = inner
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        rest = next;
        match (name.as_str(), closing) {
            ("script" | "style", false) => {
                let close = format!("</{name}");
                let lower = rest.to_ascii_lowercase();
                rest = match lower.find(&close) {
                    Some(c) => rest[c..].find('>').map_or("", |e| &rest[c + e + 1..]),
                    None => "",
                };
            }
            ("br" | "p" | "div" | "table" | "tr" | "h1" | "h2" | "h3" | "h4", _) => {
                if b.list.is_some() && b.in_item {
                    push(&mut b.item, Inline::Text(" ".into()));
                } else {
                    b.end_link();
                    b.end_paragraph();
                }
            }
            ("ul" | "ol", false) => {
                b.end_link();
                b.end_paragraph();
                b.end_list();
                b.list = Some(Vec::new());
            }
            ("ul" | "ol", true) => {
                b.end_link();
                b.end_list();
            }
            ("li", false) => {
                b.end_link();
                if b.list.is_none() {
                    b.end_paragraph();
                    b.list = Some(Vec::new());
                }
                b.end_item();
                b.in_item = true;
            }
            ("li", true) => {
                b.end_link();
                b.end_item();
            }
            ("b" | "strong", false) => b.strong += 1,
            ("b" | "strong", true) => b.strong = b.strong.saturating_sub(1),
            ("a", false) => {
                b.end_link();
                b.link = href(inner).map(|h| (h, String::new()));
            }
            ("a", true) => b.end_link(),
            _ => {}
        }
    }
    b.text(rest);
    b.end_link();
    b.end_list();
    b.end_paragraph();
    b.blocks
}

/// White space runs as one space, trimmed.
pub(super) fn collapse_ws(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// PAL's descriptions are HTML in CDATA: tags out, paragraphs as new lines, entities decoded.
fn strip_html(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        out.push_str(&rest[..lt]);
        let after = &rest[lt + 1..];
        let end = after.find('>').map_or(after.len(), |e| e + 1);
        let tag: String = after
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        rest = &after[end..];
        match tag.as_str() {
            // Script and style content is not text.
            "script" | "style" if !after.starts_with('/') => {
                let close = format!("</{tag}");
                let lower = rest.to_ascii_lowercase();
                rest = match lower.find(&close) {
                    Some(c) => rest[c..].find('>').map_or("", |e| &rest[c + e + 1..]),
                    None => "",
                };
            }
            "br" | "li" | "p" | "ul" | "ol" | "div" | "tr" | "table" => out.push('\n'),
            // Inline markup (<B>, <A>, <FONT>) joins the text it wraps.
            "b" | "i" | "u" | "a" | "font" | "span" | "em" | "strong" | "code" => {}
            _ => out.push(' '),
        }
    }
    out.push_str(rest);
    let out = out
        .replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    // Spaces collapsed within lines; runs of blank lines to one.
    let lines: Vec<String> = out.lines().map(collapse_ws).collect();
    let mut text = String::new();
    let mut blank = 0;
    for l in lines {
        if l.is_empty() {
            blank += 1;
            continue;
        }
        if !text.is_empty() {
            text.push_str(if blank > 0 { "\n\n" } else { "\n" });
        }
        blank = 0;
        text.push_str(&l);
    }
    text
}

/// The links of a PAL description: `<A HREF="...">title</A>` and bare http(s) addresses.
pub(super) fn references_in(html: &str) -> Vec<Reference> {
    let mut refs: Vec<Reference> = Vec::new();
    let lower = html.to_ascii_lowercase();
    let mut linked = Vec::new();
    let mut from = 0;
    while let Some(p) = lower[from..].find("href=") {
        let s = from + p + 5;
        let quote = html[s..].chars().next();
        let (start, end) = match quote {
            Some(q @ ('"' | '\'')) => {
                let st = s + 1;
                (st, html[st..].find(q).map_or(html.len(), |e| st + e))
            }
            _ => (
                s,
                html[s..]
                    .find(|c: char| c.is_whitespace() || c == '>')
                    .map_or(html.len(), |e| s + e),
            ),
        };
        let url = html[start..end].trim().to_string();
        let close = lower[end..].find("</a>").map_or(end, |e| end + e);
        let open_end = html[end..close].find('>').map_or(end, |e| end + e + 1);
        let title = strip_html(&html[open_end.min(close)..close]);
        if url.starts_with("http://") || url.starts_with("https://") {
            linked.push(url.clone());
            if !refs.iter().any(|r| r.url == url) {
                refs.push(Reference {
                    title: if title.is_empty() {
                        url.clone()
                    } else {
                        title.replace('\n', " ")
                    },
                    url,
                });
            }
        }
        from = end.max(s);
    }
    // Bare addresses in the text (not inside an HREF).
    let text = strip_html(html);
    for word in text.split(|c: char| c.is_whitespace() || c == '"' || c == '<' || c == '>') {
        if (word.starts_with("http://") || word.starts_with("https://"))
            && !refs.iter().any(|r| r.url == word)
        {
            let url = word.trim_end_matches(['.', ',', ')', ';']).to_string();
            refs.push(Reference {
                title: url.clone(),
                url,
            });
        }
    }
    refs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Inline {
        Inline::Text(s.into())
    }

    #[test]
    fn pal_available_mbytes_description() {
        let html = "Available MBytes is the amount of physical RAM.<BR>\nThis analysis alerts a Warning.\n<br>\n<br>\n<B>References:</B>\n<UL>\n<LI><A HREF=\"http://social.technet.microsoft.com/wiki/1514.aspx\">PerfGuide: Low Available RAM</A></LI>\n<LI>Chapter 8 of the <A HREF=\"http://www.amazon.com/x?a=1&amp;b=2\">Field Guide</A> by Clint Huffman</LI>\n</UL>\n<BR>\n";
        assert_eq!(
            blocks(html),
            vec![
                Block::Paragraph(vec![t("Available MBytes is the amount of physical RAM.")]),
                Block::Paragraph(vec![t("This analysis alerts a Warning.")]),
                Block::Paragraph(vec![Inline::Strong {
                    strong: "References:".into()
                }]),
                Block::List(vec![
                    vec![Inline::Link {
                        link: "http://social.technet.microsoft.com/wiki/1514.aspx".into(),
                        text: "PerfGuide: Low Available RAM".into()
                    }],
                    vec![
                        t("Chapter 8 of the "),
                        Inline::Link {
                            link: "http://www.amazon.com/x?a=1&b=2".into(),
                            text: "Field Guide".into()
                        },
                        t(" by Clint Huffman")
                    ],
                ]),
            ]
        );
    }

    #[test]
    fn bare_addresses_become_links() {
        let b = blocks("<B>Monitoring CPU Usage</B><BR>\nhttp://msdn.microsoft.com/ms178072.aspx \n<BR>see https://x.example/a.");
        assert_eq!(
            b,
            vec![
                Block::Paragraph(vec![Inline::Strong {
                    strong: "Monitoring CPU Usage".into()
                }]),
                Block::Paragraph(vec![Inline::Link {
                    link: "http://msdn.microsoft.com/ms178072.aspx".into(),
                    text: "http://msdn.microsoft.com/ms178072.aspx".into()
                }]),
                Block::Paragraph(vec![
                    t("see "),
                    Inline::Link {
                        link: "https://x.example/a".into(),
                        text: "https://x.example/a".into()
                    },
                    t(".")
                ]),
            ]
        );
    }

    #[test]
    fn hostile_markup_stays_text() {
        // A script's content is dropped; a javascript: link keeps its text only; an unclosed tag ends it.
        let b = blocks("a<script>alert(1)</script> b <a href='javascript:alert(1)'>click</a> <img src=x onerror=alert(1)>c &lt;b&gt; &#x41;&#66; &bogus; <");
        assert_eq!(
            b,
            vec![Block::Paragraph(vec![t("a b click c <b> AB &bogus;")])]
        );
        assert_eq!(blocks(""), vec![]);
        assert_eq!(blocks("<<<>>>"), vec![Block::Paragraph(vec![t(">>")])]);
        // Nested and unbalanced lists and strong tags do not panic and keep every word.
        let b = blocks("<ul><li>x<ul><li>y</b></b></li></ul>z</li></ol><b>w");
        let text = crate::analysis::pack::Text::Rich(b).plain();
        for w in ["x", "y", "z", "w"] {
            assert!(text.contains(w), "{text}");
        }
    }

    #[test]
    fn html_descriptions_become_text_and_references() {
        let html = r#"Low RAM.<BR><B>References:</B><UL><LI><A HREF="http://example.com/a">Guide &amp; more</A></LI></UL> See http://example.com/b."#;
        assert_eq!(
            strip_html(html),
            "Low RAM.\nReferences:\n\nGuide & more\n\nSee http://example.com/b."
        );
        // Unclosed tags, multi-byte text after `<`, a script with no end: text, no panic.
        assert_eq!(strip_html("a <é b"), "a");
        assert_eq!(strip_html("x<script>alert(1)"), "x");
        assert_eq!(strip_html("<B>bold</B>, <i>it</i>"), "bold, it");
        let r = references_in(html);
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].title, "Guide & more");
        assert_eq!(r[0].url, "http://example.com/a");
        assert_eq!(r[1].url, "http://example.com/b");
    }

    /// Found by the `pal_import` fuzz target: a tag never closed whose text ends in a character of more
    /// than one byte (U+FFFD, as a lossy read of a broken file gives) sliced that character in two.
    #[test]
    fn a_tag_never_closed_ends_the_text() {
        assert_eq!(
            blocks("See <a href=\"https://x.example/\">x.example</\u{FFFD}"),
            vec![Block::Paragraph(vec![
                t("See "),
                Inline::Link {
                    link: "https://x.example/".into(),
                    text: "x.example".into()
                }
            ])]
        );
        assert_eq!(blocks("<\u{FFFD}"), Vec::<Block>::new());
        assert_eq!(blocks("a <b\u{e9}"), vec![Block::Paragraph(vec![t("a")])]);
    }

    proptest::proptest! {
        /// Any text, markup or not, broken anywhere (tags never closed, entities cut, characters of
        /// two to four bytes at every position), gives blocks and references without panicking.
        #[test]
        fn any_text_gives_blocks(html in "(<[/a-zA-Z]{0,4}|[^<]{0,6}|>|&[a-z#0-9]{0,5};?|\\PC){0,40}") {
            let _ = blocks(&html);
            let _ = references_in(&html);
        }
    }
}
