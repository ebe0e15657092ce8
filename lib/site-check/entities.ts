/** The HTML entities React and Next write in text and attributes, decoded. */
const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&quot;': '"',
  '&#x27;': "'",
  '&#39;': "'",
  '&lt;': '<',
  '&gt;': '>',
}

export const decodeEntities = (s: string) => s.replace(/&(amp|quot|#x27|#39|lt|gt);/g, (m) => ENTITIES[m] ?? m)
