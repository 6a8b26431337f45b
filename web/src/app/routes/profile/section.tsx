import { useId, type ReactNode } from 'react';
import { Card } from '../../../components/ui/card';

/** A profile card: a section labelled by its heading. */
export function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <Card>
        <h2 id={headingId} className="text-lg font-semibold text-fg">
          {title}
        </h2>
        {description && <p className="mt-1 text-sm text-fg-muted">{description}</p>}
        <div className="mt-5">{children}</div>
      </Card>
    </section>
  );
}
