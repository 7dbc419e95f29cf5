import { paginationWindow } from './table-logic';

interface TablePaginationProps {
  page: number;
  totalPages: number;
  onPageChange: (page: number) => void;
  /** Names the navigation landmark, e.g. 'Approvals pages'. */
  label: string;
}

/** Page links per spec section 9; renders nothing when everything fits on one page. */
export function TablePagination({ page, totalPages, onPageChange, label }: TablePaginationProps) {
  const items = paginationWindow(page, totalPages);
  if (items.length === 0) return null;
  return (
    <nav aria-label={label}>
      <ul className="pagination justify-content-center flex-wrap">
        <PageButton
          label="Previous page"
          text="‹"
          disabled={page <= 1}
          onClick={() => onPageChange(page - 1)}
        />
        {items.map((item, index) =>
          item === 'ellipsis' ? (
            <li key={`gap-${index}`} className="page-item disabled">
              <span className="page-link" aria-hidden="true">
                …
              </span>
            </li>
          ) : (
            <li key={item} className={item === page ? 'page-item active' : 'page-item'}>
              <button
                type="button"
                className="page-link"
                aria-current={item === page ? 'page' : undefined}
                aria-label={`Page ${item}`}
                onClick={() => onPageChange(item)}
              >
                {item}
              </button>
            </li>
          ),
        )}
        <PageButton
          label="Next page"
          text="›"
          disabled={page >= totalPages}
          onClick={() => onPageChange(page + 1)}
        />
      </ul>
    </nav>
  );
}

function PageButton(props: { label: string; text: string; disabled: boolean; onClick: () => void }) {
  return (
    <li className={props.disabled ? 'page-item disabled' : 'page-item'}>
      <button
        type="button"
        className="page-link"
        aria-label={props.label}
        disabled={props.disabled}
        onClick={props.onClick}
      >
        <span aria-hidden="true">{props.text}</span>
      </button>
    </li>
  );
}
