import { describe, expect, it } from "vitest";
import { markupDescription } from "./description-markup.ts";
import { formatDescription as sanitizedDescription } from "./description.ts";

/** What a browser would show and build from the HTML. */
function render(html: string) {
  const container = document.createElement("div");
  container.innerHTML = html;
  return container;
}

// The card's short description (markupDescription, no DOMPurify) and the detail page's sanitized one
// (formatDescription) must read and protect alike: every case below runs against both.
describe.each([
  ["markupDescription", markupDescription],
  ["formatDescription", sanitizedDescription],
])("%s", (_name, formatDescription) => {
  describe("the marks of R-GEN-3", () => {
    it("turns *bold*, _italic_ and ~underline~ into strong, em and u", () => {
      expect(formatDescription("Un *gato* muy _rápido_ y ~ruidoso~.")).toBe(
        "Un <strong>gato</strong> muy <em>rápido</em> y <u>ruidoso</u>.",
      );
    });

    it("turns every kind of line break into <br>", () => {
      expect(formatDescription("uno\ndos\r\ntres\rcuatro")).toBe(
        "uno<br>dos<br>tres<br>cuatro",
      );
    });

    it("nests marks and marks several words", () => {
      expect(formatDescription("*_muy importante_*")).toBe(
        "<strong><em>muy importante</em></strong>",
      );
    });

    it("leaves marks inside words, around spaces, across lines or unpaired as typed", () => {
      for (const text of [
        "snake_case_name",
        "2*3*4",
        "un * suelto",
        "* no *",
        "*abre\ncierra*",
        "ruta ~/carpeta/",
      ]) {
        expect(render(formatDescription(text)).textContent).toBe(
          text.replace(/\n/g, ""),
        );
        expect(
          render(formatDescription(text)).querySelector("strong, em, u"),
        ).toBeNull();
      }
    });

    it("gives an empty string for a missing description", () => {
      expect(formatDescription(null)).toBe("");
      expect(formatDescription(undefined)).toBe("");
      expect(formatDescription("")).toBe("");
    });

    it("keeps accented text and punctuation next to marks", () => {
      expect(formatDescription("(*Atención*): ¡_ojo_!")).toBe(
        "(<strong>Atención</strong>): ¡<em>ojo</em>!",
      );
    });
  });

  describe("text is never markup", () => {
    const payloads = [
      "<img src=x onerror=alert(1)>",
      '<script>alert("xss")</script>',
      "<svg onload=alert(1)><circle/></svg>",
      '<a href="javascript:alert(1)">pulsa</a>',
      "[pulsa](javascript:alert(1))",
      '<iframe src="https://example.com"></iframe>',
      '"><img src=x onerror=alert(1)>',
      '<strong onclick="alert(1)">negrita falsa</strong>',
      "*<img src=x onerror=alert(1)>*",
      "&lt;script&gt; ya escapado",
    ];

    for (const payload of payloads) {
      it(`shows ${JSON.stringify(payload)} as the text typed, with no element but the marks`, () => {
        const container = render(formatDescription(payload));
        const elements = [...container.querySelectorAll("*")];
        expect(
          elements.every((element) =>
            ["STRONG", "EM", "U", "BR"].includes(element.tagName),
          ),
        ).toBe(true);
        expect(
          elements.every((element) => element.attributes.length === 0),
        ).toBe(true);
        const shown = payload.startsWith("*") ? payload.slice(1, -1) : payload;
        expect(container.textContent).toBe(shown);
      });
    }

    it("renders a bold mark around a payload as bold text, not as an image", () => {
      const container = render(
        formatDescription("*<img src=x onerror=alert(1)>*"),
      );
      expect(container.querySelector("img")).toBeNull();
      expect(container.querySelector("strong")).toHaveTextContent(
        "<img src=x onerror=alert(1)>",
      );
    });
  });
});
