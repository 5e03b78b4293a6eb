import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * One figure: its name and value, a link to the calls behind it when there is a filter for
 * them, and a line of detail (which may hold links of its own). `tone` marks a target met or
 * missed, in words as well as colour.
 */
export type Figure = {
  label: string;
  value: string;
  to?: string;
  detail?: ReactNode;
  tone?: 'good' | 'bad' | undefined;
  testId?: string;
};

export function FigureCard(props: Figure) {
  const body = (
    <>
      <span className="figure-label">{props.label}</span>
      <span className="figure-value">{props.value}</span>
    </>
  );
  return (
    <li className="figure" data-tone={props.tone} data-testid={props.testId}>
      {props.to ? (
        <Link className="figure-main" to={props.to}>
          {body}
        </Link>
      ) : (
        <div className="figure-main">{body}</div>
      )}
      {props.detail && <p className="figure-detail">{props.detail}</p>}
    </li>
  );
}

/** Figures side by side, as many a row as fit, in the order given. */
export function FigureGrid({ figures }: { figures: readonly Figure[] }) {
  return (
    <ul className="figure-grid">
      {figures.map((figure) => (
        <FigureCard key={figure.label} {...figure} />
      ))}
    </ul>
  );
}

/** A section of figures under its heading. */
export function FigureSection(props: { title: string; children: ReactNode; testId?: string }) {
  const id = useId();
  return (
    <section className="figure-section" aria-labelledby={id} data-testid={props.testId}>
      <h3 id={id}>{props.title}</h3>
      {props.children}
    </section>
  );
}
