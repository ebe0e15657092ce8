/**
 * Stands in for `@headlessui/react` inside Nextra and its docs theme (next.config.mjs aliases it
 * for imports from those packages only). Headless UI with its floating-ui, react-aria and
 * @tanstack/virtual dependencies was two thirds of every page's shared JavaScript; the theme
 * uses a handful of its components, and these are those, with the props the theme passes.
 */
export { Button } from './button'
export { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions } from './combobox'
export {
  Listbox,
  ListboxButton,
  ListboxOption,
  ListboxOptions,
  Menu,
  MenuButton,
  MenuItem,
  MenuItems,
} from './popup-list'
export { Popover, PopoverButton, PopoverPanel } from './popover'
export { Tab, TabGroup, TabList, TabPanel, TabPanels } from './tabs'
