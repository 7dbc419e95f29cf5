import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DataTable } from './data-table';
import { useDataTable, type DataColumn } from './use-data-table';

interface Person {
  id: string;
  name: string;
  org: string;
}

const columns: DataColumn<Person>[] = [
  { key: 'name', header: 'Name', sortValue: (p) => p.name, render: (p) => p.name },
  { key: 'org', header: 'Organization', sortValue: (p) => p.org, render: (p) => p.org },
  { key: 'actions', header: 'Actions', render: () => 'x' },
];

const people: Person[] = Array.from({ length: 12 }, (_, i) => ({
  id: String(i + 1),
  name: `Person ${String(i + 1).padStart(2, '0')}`,
  org: i % 2 === 0 ? 'Acme' : 'Globex',
}));

function Harness(props: { rows: Person[]; pageSize?: number; stackOnPhone?: boolean }) {
  const { rows, pageSize = 5, stackOnPhone } = props;
  const table = useDataTable({ rows, columns, pageSize, filterText: (p) => [p.name, p.org] });
  return (
    <DataTable
      stackOnPhone={stackOnPhone}
      table={table}
      caption="People"
      filterLabel="Filter people"
      emptyText="Nobody here"
      getRowKey={(p) => p.id}
      renderDetails={(p) => <p>Details of {p.name}</p>}
      detailsLabel={(p) => `Details for ${p.name}`}
    />
  );
}

const bodyNames = () =>
  within(screen.getAllByRole('rowgroup')[1]!)
    .getAllByRole('row')
    .map((row) => within(row).getAllByRole('cell')[1]?.textContent);

describe('DataTable', () => {
  it('stacks its rows on a phone when asked: each cell named by its column', () => {
    const { unmount } = render(<Harness rows={people.slice(0, 1)} />);
    expect(screen.getByRole('table').className).not.toContain('table-stacked-phone');
    expect(screen.getByRole('cell', { name: 'Acme' }).getAttribute('data-label')).toBeNull();
    unmount();
    render(<Harness rows={people.slice(0, 1)} stackOnPhone />);
    expect(screen.getByRole('table').className).toContain('table-stacked-phone');
    expect(screen.getByRole('cell', { name: 'Acme' }).getAttribute('data-label')).toBe('Organization');
  });

  it('pages rows, showing the pagination only when rows exceed the page size', async () => {
    const { unmount } = render(<Harness rows={people.slice(0, 5)} />);
    expect(screen.queryByRole('navigation')).toBeNull();
    unmount();

    render(<Harness rows={people} />);
    const nav = screen.getByRole('navigation', { name: 'People pages' });
    expect(within(nav).getByRole('button', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');
    expect(bodyNames()).toHaveLength(5);
    await userEvent.click(within(nav).getByRole('button', { name: 'Page 3' }));
    expect(bodyNames()).toEqual(['Person 11', 'Person 12']);
    expect(within(nav).getByRole('button', { name: 'Next page' })).toHaveProperty('disabled', true);
  });

  it('sorts by clicking a header and reports it through aria-sort', async () => {
    render(<Harness rows={people} />);
    const nameHeader = screen.getByRole('columnheader', { name: /Name/ });
    expect(nameHeader.getAttribute('aria-sort')).toBe('none');
    await userEvent.click(within(nameHeader).getByRole('button'));
    expect(nameHeader.getAttribute('aria-sort')).toBe('ascending');
    await userEvent.click(within(nameHeader).getByRole('button'));
    expect(nameHeader.getAttribute('aria-sort')).toBe('descending');
    expect(bodyNames()[0]).toBe('Person 12');
    expect(screen.getByRole('columnheader', { name: 'Actions' }).getAttribute('aria-sort')).toBeNull();
  });

  it('filters rows, going back to page 1, and shows the empty text when nothing matches', async () => {
    render(<Harness rows={people} />);
    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await userEvent.type(screen.getByLabelText('Filter people'), 'globex');
    expect(bodyNames()).toEqual(['Person 02', 'Person 04', 'Person 06', 'Person 08', 'Person 10']);
    expect(screen.getByRole('button', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');
    await userEvent.type(screen.getByLabelText('Filter people'), ' nobody');
    expect(screen.getByText('Nobody here')).toBeTruthy();
  });

  it('expands and collapses a row with an aria-expanded toggle', async () => {
    render(<Harness rows={people} />);
    const toggle = screen.getByRole('button', { name: 'Details for Person 01' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const details = screen.getByText('Details of Person 01');
    expect(details.closest('tr')?.id).toBe(toggle.getAttribute('aria-controls'));
    await userEvent.click(toggle);
    expect(screen.queryByText('Details of Person 01')).toBeNull();
  });
});
