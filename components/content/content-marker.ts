/** The element that holds a page's static content, on the server and in the browser. */
export const CONTENT_ATTRIBUTE = 'data-ferry-content'
export const CONTENT_SELECTOR = `[${CONTENT_ATTRIBUTE}]`
export const CONTENT_CLASS = 'ferry-content'
