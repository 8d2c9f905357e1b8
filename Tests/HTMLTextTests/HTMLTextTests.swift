@testable import HTMLText
import Testing

/// Text made safe in HTML, and Xcode's placeholders as the page shows them.
struct HTMLTextTests {
    @Test func theFiveCharactersBecomeEntitiesAndNothingElseChanges() {
        #expect(escapeHTML(#"a & b < c > d " e ' f"#) == "a &amp; b &lt; c &gt; d &quot; e &#39; f")
        #expect(escapeHTML("ğ<ü\u{301}") == "ğ&lt;ü\u{301}")
        #expect(escapeHTML("&amp;") == "&amp;amp;")
        #expect(escapeHTML("nothing to do: ç") == "nothing to do: ç")
        #expect(escapeHTML("") == "")
    }

    @Test func aPlaceholderInEscapedCodeIsATokenWithTheNameXcodeShows() {
        #expect(PlaceholderText.tokens(inEscapedCode: "f(&lt;#T##count##Int#&gt;, &lt;#name#&gt;)")
            == #"f(<span class="tok-placeholder">count</span>, <span class="tok-placeholder">name</span>)"#)
        // No end on the same line, or another opening before the end: the text as it was, up to there.
        #expect(PlaceholderText.tokens(inEscapedCode: "&lt;#a\n#&gt;") == "&lt;#a\n#&gt;")
        #expect(PlaceholderText.tokens(inEscapedCode: "&lt;#a &lt;#b#&gt;")
            == #"&lt;#a <span class="tok-placeholder">b</span>"#)
    }

    @Test func onlyPlaceholdersInsideCodeElementsBecomeTokens() {
        let html = #"<p>&lt;#out#&gt; <code class="x">&lt;#in#&gt;</code></p>"#
        #expect(PlaceholderText.tokens(inCodeOf: html)
            == #"<p>&lt;#out#&gt; <code class="x"><span class="tok-placeholder">in</span></code></p>"#)
    }
}
