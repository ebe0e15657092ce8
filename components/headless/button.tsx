import { forwardRef } from 'react'
import type { ButtonHTMLAttributes } from 'react'
import { dataAttributes, resolveClassName, useInteraction } from './state'
import type { ClassName, Interaction } from './state'

type ButtonState = Interaction & { active: boolean; disabled: boolean; autofocus: boolean }

export type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'className'> & {
  className?: ClassName<ButtonState>
}

/** Headless UI's Button: a native button (type="button" unless told) with focus/hover state for its className. */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { className, type = 'button', ...props },
  ref,
) {
  const { state, handlers } = useInteraction(props)
  const full: ButtonState = {
    ...state,
    active: false,
    disabled: props.disabled === true,
    autofocus: props.autoFocus === true,
  }
  return (
    <button
      ref={ref}
      type={type}
      {...props}
      {...handlers}
      {...dataAttributes({ focus: state.focus, hover: state.hover, disabled: full.disabled })}
      className={resolveClassName(className, full)}
    />
  )
})
