/**
 * `nextra/icons` as Nextra's docs theme sees it (next.config.mjs replaces the import for the theme
 * only): the same icons, but for the Discord logo of the theme's default chat link, which this site
 * never renders (it sets no `chat.link`); its path data was half a kilobyte of every page.
 */
export {
  ArrowRightIcon,
  CheckIcon,
  CopyIcon,
  ExpandIcon,
  GitHubIcon,
  GlobeIcon,
  InformationCircleIcon,
  MenuIcon,
  MoonIcon,
  SpinnerIcon,
  SunIcon,
  XIcon,
} from 'nextra/icons'

export function DiscordIcon(): null {
  return null
}
