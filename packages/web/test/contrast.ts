// WCAG contrast as the page draws it, in real Chromium: each matching element's text colour and the
// colour of what it is drawn on (the nearest ancestor with a background), and their ratio.
import type { Page } from 'playwright-core';

export type Rgb = readonly [number, number, number];

/** WCAG AA for normal text. */
export const AA = 4.5;

export interface TextColour {
  /** The element's text. */
  readonly text: string;
  readonly ink: Rgb;
  readonly ground: Rgb;
}

/** Each element `selector` matches, with its colour and the colour of what it is drawn on. */
export function textColours(page: Page, selector: string): Promise<TextColour[]> {
  return page.locator(selector).evaluateAll((elements) => {
    const rgb = (css: string): [number, number, number, number] => {
      const [r = 0, g = 0, b = 0, a = 1] = (css.match(/[\d.]+/g) ?? []).map(Number);
      return [r, g, b, a];
    };
    const view = elements[0]?.ownerDocument.defaultView;
    if (view === null || view === undefined) return [];
    return elements.map((element) => {
      let ground: [number, number, number, number] = [255, 255, 255, 1];
      for (let at: typeof element | null = element; at !== null; at = at.parentElement) {
        const colour = rgb(view.getComputedStyle(at).backgroundColor);
        if (colour[3] > 0) {
          ground = colour;
          break;
        }
      }
      const ink = rgb(view.getComputedStyle(element).color);
      return {
        text: element.textContent ?? '',
        ink: [ink[0], ink[1], ink[2]] as const,
        ground: [ground[0], ground[1], ground[2]] as const,
      };
    });
  });
}

/** WCAG 2 contrast ratio of two sRGB colours. */
export function contrast(a: Rgb, b: Rgb): number {
  const luminance = (rgb: Rgb) => {
    const [r, g, b2] = rgb.map((channel) => {
      const c = channel / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b2;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}
