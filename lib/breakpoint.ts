/**
 * The site's mobile breakpoint (site spec §9): at or below this width the navigation
 * collapses into the mobile sidebar. nextra-theme-docs compiles 768 px into its CSS and JS;
 * scripts/theme-css.ts and patches/nextra-theme-docs+3.3.1.patch move it here.
 */
export const MOBILE_MAX_WIDTH = 996
