import { z } from 'zod';

// GitHub refuses label names longer than 50 characters; counting code points keeps an emoji
// one character, as GitHub counts it.
const LABEL_MESSAGE =
  'must be a label name of 1 to 50 characters, without leading or trailing spaces';

/** A label name as claims.yml writes it. */
export const LabelName = z
  .string({ error: LABEL_MESSAGE })
  .refine((name) => name.trim() === name && [...name].length >= 1 && [...name].length <= 50, {
    error: LABEL_MESSAGE,
  });

export const BOOLEAN_MESSAGE = 'must be true or false';
export const LABELS_MESSAGE = 'must be a list of label names such as ["good first issue"]';
