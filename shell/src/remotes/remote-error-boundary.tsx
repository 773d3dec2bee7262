import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  /** Called once the failure is shown. */
  onError: () => void;
  /** Called by the Retry button, after the boundary has cleared its error. */
  onRetry: () => void;
  /** A change (such as a new route) clears a shown error, so navigation tries again. */
  resetKey: string;
  children: ReactNode;
}

interface State {
  error: unknown;
  resetKey: string;
}

/**
 * Keeps a failing remote inside its own area: the header, footer and other remotes stay
 * usable, and the visitor gets a plain message and a button that really retries.
 */
export class RemoteErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('A part of the shop failed to load', error, info.componentStack);
    this.props.onError();
  }

  private readonly retry = () => {
    this.setState({ error: null });
    this.props.onRetry();
  };

  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <div className="shell-remote-unavailable" role="alert">
        <p>This part of the shop is unavailable right now.</p>
        <button type="button" className="bs-button" onClick={this.retry}>
          Retry
        </button>
      </div>
    );
  }
}
