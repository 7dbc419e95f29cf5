import { useQuery } from '@tanstack/react-query';
import Card from 'react-bootstrap/Card';
import { departureApi } from '@pra/contracts/paths';
import { mySponsorsBody } from '../../api/boot-parsers';
import { call } from '../../api/client';

/** "Your sponsors": "{Org}: {BRM name}, {email}" for each access (GOVERNANCE.md §6.2). */
export function SponsorsCard() {
  const { data } = useQuery({
    queryKey: ['profile', 'sponsors'],
    queryFn: ({ signal }) => call(mySponsorsBody, { method: 'get', url: departureApi.mySponsors, signal }),
  });
  if (!data || data.sponsors.length === 0) return null;
  return (
    <Card>
      <Card.Body>
        <Card.Title as="h2" className="h5">
          Your sponsors
        </Card.Title>
        <ul className="mb-0">
          {data.sponsors.map((s) => (
            <li key={s.organization}>
              {s.organization}: {s.name ? `${s.name}, ${s.email ?? ''}` : 'No sponsor'}
            </li>
          ))}
        </ul>
      </Card.Body>
    </Card>
  );
}
