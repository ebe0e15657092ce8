import { Component, type ErrorInfo, type ReactNode } from 'react'

type Props = { children: ReactNode; resetKey: string }
type State = { error: Error | null }

/** Catches render errors of a page: shows "This page crashed" with a "Try again" that re-renders it. */
export class PageErrorBoundary extends Component<Props, State> {
  state: State = { error: null }

  static getDerivedStateFromError(error: Error): State {
    return { error }
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Page crashed while rendering', error, info.componentStack)
  }

  componentDidUpdate(prev: Props) {
    // Navigating away clears the crash: the next route gets a fresh render.
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null })
  }

  render() {
    const { error } = this.state
    if (!error) return this.props.children
    return (
      <main className="ferry-crash" role="alert">
        <h1>This page crashed</h1>
        <p>{error.message}</p>
        <button type="button" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
        <p>
          <a href="/">Back to the home page</a>
        </p>
      </main>
    )
  }
}
