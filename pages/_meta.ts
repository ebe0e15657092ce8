export default {
  index: {
    title: 'Home',
    type: 'page',
    display: 'hidden',
    theme: { layout: 'full', toc: false, sidebar: false, pagination: false, breadcrumb: false, timestamp: false },
  },
  docs: { title: 'Documentation', type: 'page' },
  blog: { title: 'Blog', type: 'page' },
  demo: {
    title: 'Demo Dashboard',
    type: 'page',
    theme: { layout: 'full', toc: false, sidebar: false, pagination: false, timestamp: false },
  },
  'markdown-page': {
    title: 'Markdown page',
    type: 'page',
    display: 'hidden',
    theme: { toc: false, sidebar: false, pagination: false },
  },
  search: {
    title: 'Search',
    type: 'page',
    display: 'hidden',
    theme: { layout: 'full', toc: false, sidebar: false, pagination: false, timestamp: false },
  },
  '404': {
    type: 'page',
    display: 'hidden',
    theme: { layout: 'full', toc: false, sidebar: false, pagination: false, timestamp: false },
  },
}
