// What a session is called wherever it is shown: the name a person gave it, else its purpose (its first thought,
// shortened), else its id.

interface TitledMeta {
  id: string;
  title?: string;
  purpose?: string;
}

/** The session's name or purpose; undefined when it has neither (a caller then picks its own fallback). */
export function sessionName(meta: Omit<TitledMeta, 'id'>): string | undefined {
  return meta.title ?? meta.purpose;
}

/** The session's name, else its purpose, else its id. */
export function sessionTitle(meta: TitledMeta): string {
  return meta.title ?? meta.purpose ?? meta.id;
}
