// The types of every public result, against shapes written out here by hand from the interface
// document (its "Resources and their fields") and docs/design.md (statuses, open strings), not
// derived from @pay/schema: a type that drifts from what the service sends fails here. Run by
// vitest's typecheck (the `types` project) and by `tsc` before the tests.
import type { CreatePayoutRequest, CreatePayoutRequestPaymentPage } from '@pay/schema';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  ApiError,
  AuthenticationError,
  Client,
  ClientLimits,
  CreatedPayin,
  CreatedPayout,
  CreateResult,
  InvalidRequestError,
  InvalidResponseError,
  OutcomeUnknownError,
  Payin,
  Payout,
  RawResponse,
  ReconcileEvent,
  Result,
} from '../src/index.js';

/** The money object of an answer: a number on the wire (a decimal string is read too). */
type Money = { amount: number | string; currency: string };

/** The four statuses known (two documented, two named by the design), and any other. */
type Status = 'new' | 'executed' | 'failed' | 'expired' | (string & {});

/** What every record carries: the interface's common fields, datetimes read as Dates. */
type Common = {
  id: string;
  reference_id?: string | null;
  status: Status;
  payment: Money;
  fee: Money | null;
  readonly created_at: Date;
  readonly updated_at: Date;
  readonly expires_at: Date;
  error_code: string | null;
  error_message: string | null;
};

type NextAction = { type: string; url: string };

type ExpectedPayin = Common & { language?: string | null };
type ExpectedCreatedPayin = Common & { method?: string | null; next_action: NextAction };
type ExpectedPayout = Common;
type ExpectedCreatedPayout = Common & { next_action: NextAction };

/** Flattens an intersection so that two ways of writing one shape compare equal. */
type Flat<T> = { [K in keyof T]: T[K] };

/** What a call resolves with. */
type Resolves<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

describe('the records', () => {
  it('Payin, CreatedPayin, Payout, CreatedPayout are the interface fields, datetimes as Dates', () => {
    expectTypeOf<Flat<Payin>>().toEqualTypeOf<Flat<ExpectedPayin>>();
    expectTypeOf<Flat<CreatedPayin>>().toEqualTypeOf<Flat<ExpectedCreatedPayin>>();
    expectTypeOf<Flat<Payout>>().toEqualTypeOf<Flat<ExpectedPayout>>();
    expectTypeOf<Flat<CreatedPayout>>().toEqualTypeOf<Flat<ExpectedCreatedPayout>>();
  });

  it('a status lists the four known ones and accepts any other', () => {
    // The literals are members of the union (plain `string` would offer no completion) ...
    expectTypeOf<Extract<Payin['status'], 'new' | 'executed' | 'failed' | 'expired'>>().toEqualTypeOf<
      'new' | 'executed' | 'failed' | 'expired'
    >();
    // ... and the set is open: a status the service adds tomorrow still type-checks.
    expectTypeOf<'chargeback'>().toExtend<Payin['status']>();
    expectTypeOf<'chargeback'>().toExtend<CreatedPayout['status']>();
  });
});

describe('what each call resolves with', () => {
  it('lookups: the lookup record and the raw answer', () => {
    expectTypeOf<Resolves<Client['payins']['get']>>().toEqualTypeOf<Result<Payin>>();
    expectTypeOf<Resolves<Client['payins']['getByReference']>>().toEqualTypeOf<Result<Payin>>();
    expectTypeOf<Resolves<Client['payouts']['get']>>().toEqualTypeOf<Result<Payout>>();
    expectTypeOf<Resolves<Client['payouts']['getByReference']>>().toEqualTypeOf<Result<Payout>>();
    expectTypeOf<Result<Payin>>().toEqualTypeOf<{ readonly data: Payin; readonly response: RawResponse }>();
  });

  it("pushCard: the payin's record, or null when the answer is not one", () => {
    expectTypeOf<Resolves<Client['payins']['pushCard']>>().toEqualTypeOf<Result<Payin | null>>();
    expectTypeOf<Resolves<Client['payins']['pushCard']>['data']>().toEqualTypeOf<Payin | null>();
  });

  it('creates: the create answer (with next_action), or the record found by reference (without)', () => {
    type PayinCreate = CreateResult<CreatedPayin, Payin>;
    expectTypeOf<Resolves<Client['payins']['create']>>().toEqualTypeOf<PayinCreate>();
    expectTypeOf<Resolves<Client['payins']['createLegacy']>>().toEqualTypeOf<PayinCreate>();

    expectTypeOf<Extract<PayinCreate, { reconciled: false }>>().toEqualTypeOf<{
      readonly reconciled: false;
      readonly referenceId: string;
      readonly data: CreatedPayin;
      readonly response: RawResponse;
    }>();
    expectTypeOf<Extract<PayinCreate, { reconciled: true }>>().toEqualTypeOf<{
      readonly reconciled: true;
      readonly referenceId: string;
      readonly data: Payin;
      readonly response: RawResponse;
    }>();
    // Only the create answer has a next_action: a recovered create must be handled without one.
    expectTypeOf<Extract<PayinCreate, { reconciled: true }>['data']>().not.toHaveProperty('next_action');
    expectTypeOf<Extract<PayinCreate, { reconciled: false }>['data']['next_action']>().toEqualTypeOf<NextAction>();
  });

  it('both payout overloads resolve alike', () => {
    expectTypeOf(payout.create(direct)).resolves.toEqualTypeOf<CreateResult<CreatedPayout, Payout>>();
    expectTypeOf(payout.create(page, { paymentPage: true })).resolves.toEqualTypeOf<CreateResult<CreatedPayout, Payout>>();
  });

  it('client.limits', () => {
    expectTypeOf<Client['limits']>().toEqualTypeOf<ClientLimits>();
    expectTypeOf<ClientLimits>().toEqualTypeOf<{
      readonly timeoutMs: number;
      readonly totalTimeoutMs: number;
      readonly retries: number;
      readonly toleranceSeconds: number;
      readonly settleSeconds: number;
    }>();
  });
});

describe('what the errors carry', () => {
  it('the raw answer, the status and code, the field paths, the reference_id', () => {
    expectTypeOf<RawResponse>().toEqualTypeOf<{
      readonly status: number;
      readonly headers: Headers;
      readonly body: string;
      readonly truncated: boolean;
    }>();
    expectTypeOf<ApiError['status']>().toEqualTypeOf<number>();
    expectTypeOf<ApiError['code']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ApiError['response']>().toEqualTypeOf<RawResponse>();
    expectTypeOf<ApiError['reason']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ApiError['hint']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ApiError['errors']>().toEqualTypeOf<readonly { readonly path: string; readonly message: string }[]>();
    expectTypeOf<AuthenticationError['hint']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<InvalidResponseError['response']>().toEqualTypeOf<RawResponse>();
    expectTypeOf<InvalidRequestError['errors']>().toEqualTypeOf<readonly { readonly path: string; readonly message: string }[]>();
    expectTypeOf<OutcomeUnknownError['referenceId']>().toEqualTypeOf<string>();
    expectTypeOf<OutcomeUnknownError['decidableAt']>().toEqualTypeOf<Date>();
    expectTypeOf<OutcomeUnknownError['response']>().toEqualTypeOf<RawResponse | undefined>();
    expectTypeOf<ReconcileEvent['step']>().toEqualTypeOf<'lookup' | 'found' | 'waiting' | 'resend' | 'unknown'>();
  });
});

declare const payout: Client['payouts'];
declare const direct: CreatePayoutRequest;
declare const page: CreatePayoutRequestPaymentPage;
