import type { Plan } from '../../../src-shared/api/index.js';
import { englishText, message, type Message } from '../../../src-shared/i18n/message.js';
import type {
  AccountView,
  IpcEventName,
  IpcEventPayload,
  RateLimitView,
} from '../../../src-shared/ipc/ipc-contract.js';
import type { MediaApiClient } from '../../api-client/media-api-client.js';
import { CoreError } from '../../common/core-error.js';
import type { Engine } from '../engine.js';
import type { DemoServerPort } from '../ports.js';

/** The accounts: who is signed in, their API clients, and how a page sees them. */
export interface AccountsService {
  /** the signed-in accounts as the UI and the tray see them: never a token */
  views(): AccountView[];
  /** each signed-in account's request budget and gate */
  rateLimits(): RateLimitView[];
  /** the account's API client; NOT_SIGNED_IN when it has none */
  client(accountId: string): MediaApiClient;
  /** checks the token with the service and keeps it; says `account:changed` */
  signIn(request: { baseUrl: string; token: string; plan?: Plan }): Promise<AccountView>;
  /** forgets the token; the account's folders and queue wait for it; says `account:changed` */
  signOut(accountId: string): Promise<void>;
  /** every token the accounts use (stored, or MEDIA_SYNC_TOKEN's): what a support file is scrubbed of */
  tokens(): Promise<string[]>;
  /** starts the bundled reference server ("Try it locally") and signs in to it; UNAVAILABLE without one */
  startDemo(): Promise<AccountView>;
}

export interface AccountsServiceOptions {
  engine: Pick<
    Engine,
    'accounts' | 'client' | 'tokenFromEnvironment' | 'tokens' | 'signIn' | 'signOut' | 'moveAccount'
  >;
  /** how tokens are kept, in English (TokenVault.description), and as a catalog message */
  tokenStorage: string;
  tokenStorageText?: Message;
  demo?: DemoServerPort;
  emit<N extends IpcEventName>(name: N, payload: IpcEventPayload<N>): void;
}

/** what the Account page says of a token given by MEDIA_SYNC_TOKEN, none being kept */
const FROM_ENVIRONMENT = message('core.tokenStorage.environment');

export function createAccountsService(options: AccountsServiceOptions): AccountsService {
  const { engine, emit } = options;
  const views = (): AccountView[] =>
    engine.accounts.list().map((account) => {
      const blocked = engine.client(account.id)?.scheduler.state().blocked ?? null;
      return {
        id: account.id,
        baseUrl: account.baseUrl,
        username: account.username,
        plan: account.plan,
        blocked: blocked && {
          code: blocked.code,
          message: blocked.message,
          requestId: blocked.requestId,
          ...(blocked.text ? { text: blocked.text } : {}),
        },
        ...(engine.tokenFromEnvironment(account.id)
          ? { tokenStorage: englishText(FROM_ENVIRONMENT), tokenStorageText: FROM_ENVIRONMENT }
          : {
              tokenStorage: options.tokenStorage,
              ...(options.tokenStorageText ? { tokenStorageText: options.tokenStorageText } : {}),
            }),
      };
    });
  const signIn: AccountsService['signIn'] = async ({ baseUrl, token, plan }) => {
    const { account } = await engine.signIn(baseUrl, token, plan);
    const signedIn = views();
    emit('account:changed', signedIn);
    return signedIn.find((view) => view.id === account.id)!;
  };
  return {
    views,
    rateLimits: () =>
      engine.accounts.list().flatMap((account) => {
        const state = engine.client(account.id)?.scheduler.state();
        if (!state) return [];
        const { limit, remaining, gateOpensInMs, gateReason } = state;
        return [{ accountId: account.id, limit, remaining, gateOpensInMs, gateReason }];
      }),
    client(accountId) {
      const client = engine.client(accountId);
      if (!client) throw CoreError.say('NOT_SIGNED_IN', message('core.errors.notSignedIn'));
      return client;
    },
    signIn,
    tokens: () => engine.tokens(),
    async signOut(accountId) {
      await engine.signOut(accountId);
      emit('account:changed', views());
    },
    async startDemo() {
      if (!options.demo) throw CoreError.say('UNAVAILABLE', message('core.errors.noDemo'));
      return signIn(await options.demo.start(engine));
    },
  };
}
