/** Where the skip links lead (components/site-header.tsx). */
/** Each page's `<main>`; the id is written into the theme's layout too (patches/nextra-theme-docs). */
export const CONTENT_ID = 'ferry-main'
/** An API operation page's Try it button (components/api/try-it.tsx). */
export const TRY_IT_ID = 'try-it'
