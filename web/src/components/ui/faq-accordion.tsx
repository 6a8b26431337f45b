import * as Accordion from '@radix-ui/react-accordion';
import { ChevronDown } from 'lucide';
import type { ReactNode } from 'react';
import { Icon } from './icon';

export interface FaqItem {
  id: string;
  question: string;
  answer: ReactNode;
}

/**
 * Questions with at most one answer open (Radix Accordion: each question a button in a heading,
 * its answer a region labelled by it; Up, Down, Home and End move between the questions).
 */
export function FaqAccordion({ items }: { items: FaqItem[] }) {
  return (
    <Accordion.Root
      type="single"
      collapsible
      className="divide-y divide-border rounded-2xl border border-border bg-surface"
    >
      {items.map((item) => (
        <Accordion.Item key={item.id} value={item.id}>
          <Accordion.Header className="m-0">
            <Accordion.Trigger className="group flex w-full items-center justify-between gap-4 rounded-2xl px-5 py-4 text-left font-medium text-fg hover:bg-surface-muted/60">
              {item.question}
              <Icon node={ChevronDown}
                size={20}
                className="shrink-0 text-fg-faint transition-transform group-data-[state=open]:rotate-180"
              />
            </Accordion.Trigger>
          </Accordion.Header>
          <Accordion.Content className="px-5 pb-5 text-fg-subtle">{item.answer}</Accordion.Content>
        </Accordion.Item>
      ))}
    </Accordion.Root>
  );
}
