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

// R-VID-29: the detail page's timestamps as buttons (formatDescription with `timestampsUpTo`).
describe("timestamps that seek", () => {
  const linked = (text: string, upTo = 7200) => render(sanitizedDescription(text, { timestampsUpTo: upTo }));
  const seeks = (text: string, upTo?: number) =>
    [...linked(text, upTo).querySelectorAll("button")].map((button) => [button.textContent, button.dataset.seek]);

  it("turns m:ss, mm:ss and h:mm:ss anywhere in the text into buttons with their seconds", () => {
    expect(seeks("Ver 0:45, luego 12:34 y al final 1:02:03.")).toEqual([
      ["0:45", "45"],
      ["12:34", "754"],
      ["1:02:03", "3723"],
    ]);
    const button = linked("en 1:30").querySelector("button")!;
    expect(button.getAttribute("type")).toBe("button");
    expect([...button.attributes].map((attribute) => attribute.name).sort()).toEqual(["class", "data-seek", "type"]);
  });

  it("keeps the marks around and beside a timestamp", () => {
    const container = linked("*1:30* _Intro_ ~2:00~\n3:00 fin");
    expect(container.querySelector("strong button")).toHaveTextContent("1:30");
    expect(container.querySelector("u button")).toHaveTextContent("2:00");
    expect(container.querySelector("em")).toHaveTextContent("Intro");
    expect(container.querySelectorAll("br")).toHaveLength(1);
  });

  it("leaves what is not a timestamp of the video as text", () => {
    for (const text of ["10:30h", "1:5", "12:345", "1:60", "3.1:20", "ratio 16:9", "v1:20:30:40", "2026-03-05T12:00:00"]) {
      expect(seeks(text), text).toEqual([]);
    }
    // Past the video's end.
    expect(seeks("5:00 y 10:01", 600)).toEqual([["5:00", "300"]]);
  });

  it("never turns typed markup into elements", () => {
    const container = linked('<button data-seek="1" onclick="alert(1)">0:10</button> 0:20');
    // The typed tag is text; the timestamps in that text are still the page's own buttons.
    expect([...container.querySelectorAll("button")].map((button) => [...button.attributes].map((a) => `${a.name}=${a.value}`).join(" "))).toEqual([
      "type=button class=description-timestamp data-seek=10",
      "type=button class=description-timestamp data-seek=20",
    ]);
    expect(container.textContent).toBe('<button data-seek="1" onclick="alert(1)">0:10</button> 0:20');
  });

  it("gives the cards' form (no option) no buttons", () => {
    expect(render(sanitizedDescription("0:00 Intro")).querySelector("button")).toBeNull();
  });
});
