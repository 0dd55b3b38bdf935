/* eslint-disable */
// 由 npm run contracts 从 schemas/contracts.json 生成，请勿手工修改。
// Each catalogued operation: its kind, its param and its answer's data (unknown where undescribed).

export interface OperationContracts {
  "dev.reset": {
    kind: "call";
    param: Record<string, never>;
    data: null;
  };
  "dev.session.expire": {
    kind: "call";
    param: {
      loginName: string;
      refresh?: boolean;
    };
    data: {
      expired: number;
    };
  };
  "auth.login": {
    kind: "call";
    param: {
      loginName: string;
      password: string;
    };
    data: {
      accessToken: string;
      refreshToken: string;
      expiresIn: number;
      refreshExpiresIn: number;
    };
  };
  "auth.logout": {
    kind: "call";
    param: Record<string, never>;
    data: null;
  };
  "auth.refresh": {
    kind: "call";
    param: {
      refreshToken: string;
    };
    data: {
      accessToken: string;
      refreshToken: string;
      expiresIn: number;
      refreshExpiresIn: number;
    };
  };
  "auth.init": {
    kind: "call";
    param: Record<string, never>;
    data: {
      loginUserCode: string;
      loginUserId: number;
      loginUserName: string;
      mail: string;
      orgCodeList: string[];
      phoneNumber: string;
      roleList: string[];
      userName: string;
      needModifyPassword: boolean;
    };
  };
  "auth.ticket": {
    kind: "call";
    param: Record<string, never>;
    data: {
      ticket: string;
      qrContent: string;
      expiresIn: number;
    };
  };
  "auth.wechat.login": {
    kind: "call";
    param: {
      ticket: string;
    };
    data:
      | {
          status: "pending";
        }
      | {
          status: "expired";
        }
      | {
          status: "bound";
          accessToken: string;
          refreshToken: string;
          expiresIn: number;
          refreshExpiresIn: number;
        }
      | {
          status: "unbound";
          bindKey: string;
        };
  };
  "auth.wechat.bind": {
    kind: "call";
    param: {
      bindKey: string;
      loginName: string;
      password: string;
    };
    data: {
      accessToken: string;
      refreshToken: string;
      expiresIn: number;
      refreshExpiresIn: number;
    };
  };
  "auth.wechat.register": {
    kind: "call";
    param: {
      bindKey: string;
      tenantName: string;
      userName: string;
      phoneNumber: string;
      code: string;
      password: string;
    };
    data: {
      accessToken: string;
      refreshToken: string;
      expiresIn: number;
      refreshExpiresIn: number;
    };
  };
  "dict.tree": {
    kind: "call";
    param: {
      /**
       * @maxItems 200
       */
      dictTypeList?: string[];
    };
    data: {
      dictType: string;
      dictName: string;
      children: {
        dictValue: string;
        dictLabel: string;
        dictColor?: "default" | "error" | "processing" | "success" | "warning";
      }[];
    }[];
  };
  "resource.menu.list": {
    kind: "call";
    param: {
      clientType?: number;
    };
    data: MenuResource[];
  };
  "organization.tree": {
    kind: "call";
    param: {
      keyword?: string;
    };
    data: OrganizationNode[];
  };
  "user.detail": {
    kind: "call";
    param: Record<string, never>;
    data: {
      loginUserCode: string;
      loginUserId: number;
      loginUserName: string;
      mail: string;
      orgCodeList: string[];
      phoneNumber: string;
      roleList: string[];
      userName: string;
      needModifyPassword: boolean;
      avatar: string;
    };
  };
  "user.password.update": {
    kind: "call";
    param: {
      oldPassWord: string;
      updatePassWord: string;
    };
    data: null;
  };
  "user.password.forget": {
    kind: "call";
    param: {
      way: "phone" | "mail" | "wechat";
      account?: string;
      code?: string;
      ticket?: string;
      password: string;
    };
    data: null;
  };
  "verification.sms.send": {
    kind: "call";
    param:
      | string
      | {
          target: string;
          captchaUuid?: string;
          captchaCode?: string;
          bindKey?: string;
        };
    data: string;
  };
  "verification.voice.send": {
    kind: "call";
    param:
      | string
      | {
          target: string;
          captchaUuid?: string;
          captchaCode?: string;
          bindKey?: string;
        };
    data: string;
  };
  "verification.mail.send": {
    kind: "call";
    param:
      | string
      | {
          target: string;
          captchaUuid?: string;
          captchaCode?: string;
          bindKey?: string;
        };
    data: string;
  };
  "dev.outbox": {
    kind: "call";
    param: {
      target?: string;
    };
    data: {
      id: number;
      channel: string;
      target: string;
      code: string;
      content: string;
      createdAt: string;
    }[];
  };
  "dev.wechat.scan": {
    kind: "call";
    param: {
      ticket: string;
      openId: string;
    };
    data: null;
  };
  "dev.device.silence": {
    kind: "call";
    param: {
      code: string;
      minutes: number;
    };
    data: {
      silenced: number;
    };
  };
  "dev.device.credentials": {
    kind: "call";
    param: {
      tenantCode?: string;
      count?: number;
    };
    data: {
      code: string;
      secret: string;
      productCode: string;
      tenantCode: string;
      batteryLevel: number | null;
      signalStrength: number | null;
      temperature: number | null;
    }[];
  };
  "resource.menu.detail": {
    kind: "call";
    param: {
      resourceCode: string;
    };
    data: ResourceRecord;
  };
  "resource.tree": {
    kind: "call";
    param: {
      clientType?: number;
    };
    data: ResourceNode[];
  };
  "resource.menu.insert": {
    kind: "call";
    param: {
      resource: {
        resourceType: "1" | "2";
        parentCode?: string | null;
        resourceCode: string;
        resourceName: string;
        resourceUrl?: string;
        fileUrl?: string;
        resourceIcon?: string;
        menuClassificationCode?: string;
        isShown?: boolean;
        isCached?: boolean;
        clientType?: number;
      };
    };
    data: {
      resourceCode: string;
    };
  };
  "resource.menu.modify": {
    kind: "call";
    param: {
      resourceCode: string;
      resource: {
        resourceType: "1" | "2";
        parentCode?: string | null;
        resourceCode: string;
        resourceName: string;
        resourceUrl?: string;
        fileUrl?: string;
        resourceIcon?: string;
        menuClassificationCode?: string;
        isShown?: boolean;
        isCached?: boolean;
        clientType?: number;
      };
    };
    data: null;
  };
  "resource.menu.delete": {
    kind: "call";
    param: {
      resourceCode: string;
    };
    data: null;
  };
  "resource.menu.page": {
    kind: "page";
    param: {
      keyword?: string;
      resourceType?: "" | "1" | "2";
      menuClassificationCode?: string;
      clientType?: number;
    };
    data: {
      records: ResourceRecord[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "tenant.region.list": {
    kind: "call";
    param: {
      tenantCode?: string;
      keyword?: string;
    };
    data: {
      regionCode: string;
      regionName: string;
      parentCode: string;
      parentName: string;
      tenantCode: string;
      tenantName: string;
      projectCode: string;
      projectName: string;
    }[];
  };
  "tenant.list": {
    kind: "call";
    param: {
      keyword?: string;
    };
    data: {
      tenantCode: string;
      tenantName: string;
      projectCount: number;
      regionCount: number;
      userCount: number;
      createTime: string;
    }[];
  };
  "organization.allList": {
    kind: "call";
    param: {
      keyword?: string;
      organizationType?: "" | "1" | "2" | "3" | "4" | "5" | "6";
      parentCode?: string;
    };
    data: {
      id: number;
      organizationCode: string;
      organizationName: string;
      organizationType: string;
      parentCode: string;
      parentName: string;
      sort: number;
      childCount: number;
      userCount: number;
      createTime: string;
    }[];
  };
  "organization.list": {
    kind: "call";
    param: {
      keyword?: string;
      organizationType?: "" | "1" | "2" | "3" | "4" | "5" | "6";
      parentCode?: string;
    };
    data: {
      id: number;
      organizationCode: string;
      organizationName: string;
      organizationType: string;
      parentCode: string;
      parentName: string;
      sort: number;
      childCount: number;
      userCount: number;
      createTime: string;
    }[];
  };
  "organization.save": {
    kind: "call";
    param: {
      organization: {
        organizationName: string;
        organizationType: "2" | "3" | "4" | "5" | "6";
        parentCode: string;
        sort?: number | null;
      };
    };
    data: {
      organizationCode: string;
    };
  };
  "organization.modify": {
    kind: "call";
    param: {
      organizationCode: string;
      organization: {
        organizationName: string;
        organizationType: "2" | "3" | "4" | "5" | "6";
        parentCode: string;
        sort?: number | null;
      };
    };
    data: null;
  };
  "organization.delete": {
    kind: "call";
    param: {
      organizationCode: string;
    };
    data: null;
  };
  "organization.detail": {
    kind: "call";
    param: {
      organizationCode: string;
    };
    data: {
      id: number;
      organizationCode: string;
      organizationName: string;
      organizationType: string;
      parentCode: string;
      parentName: string;
      sort: number;
      childCount: number;
      userCount: number;
      createTime: string;
    };
  };
  "organization.page": {
    kind: "page";
    param: {
      keyword?: string;
      organizationType?: "" | "1" | "2" | "3" | "4" | "5" | "6";
      parentCode?: string;
    };
    data: {
      records: {
        id: number;
        organizationCode: string;
        organizationName: string;
        organizationType: string;
        parentCode: string;
        parentName: string;
        sort: number;
        childCount: number;
        userCount: number;
        createTime: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "role.list": {
    kind: "call";
    param: {
      keyword?: string;
      scope?: "" | "platform" | "tenant";
    };
    data: {
      roleCode: string;
      roleName: string;
      scope: "platform" | "tenant";
      scopeName: string;
      organizationCode: string;
      organizationName: string;
      builtIn: boolean;
      editable: boolean;
      userCount: number;
      remark: string;
      sort: number;
      createTime: string;
    }[];
  };
  "role.detail": {
    kind: "call";
    param: {
      roleCode: string;
      clientType?: number;
    };
    data: {
      resourceCodes: string[];
      resources: {
        value: string;
        label: string;
      }[];
      roleCode: string;
      roleName: string;
      scope: "platform" | "tenant";
      scopeName: string;
      organizationCode: string;
      organizationName: string;
      builtIn: boolean;
      editable: boolean;
      userCount: number;
      remark: string;
      sort: number;
      createTime: string;
    };
  };
  "role.setting": {
    kind: "call";
    param: {
      roleCode: string;
      /**
       * @maxItems 2000
       */
      resourceCodes: (
        | string
        | {
            value: string;
            label?: string;
            halfChecked?: boolean;
            disabled?: boolean;
          }
      )[];
      clientType?: number;
    };
    data: {
      resourceCount: number;
    };
  };
  "role.page": {
    kind: "page";
    param: {
      keyword?: string;
      scope?: "" | "platform" | "tenant";
    };
    data: {
      records: {
        roleCode: string;
        roleName: string;
        scope: "platform" | "tenant";
        scopeName: string;
        organizationCode: string;
        organizationName: string;
        builtIn: boolean;
        editable: boolean;
        userCount: number;
        remark: string;
        sort: number;
        createTime: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "role.user.setting": {
    kind: "call";
    param: {
      userId: number;
      /**
       * @minItems 1
       * @maxItems 10
       */
      roleCodes: string[];
    };
    data: null;
  };
  "role.insert": {
    kind: "call";
    param: {
      role: {
        roleCode: string;
        roleName: string;
        scope?: "platform" | "tenant";
        remark?: string;
        sort?: number | null;
      };
    };
    data: {
      roleCode: string;
    };
  };
  "role.modify": {
    kind: "call";
    param: {
      roleCode: string;
      role: {
        roleCode: string;
        roleName: string;
        scope?: "platform" | "tenant";
        remark?: string;
        sort?: number | null;
      };
    };
    data: null;
  };
  "role.delete": {
    kind: "call";
    param: {
      roleCode: string;
    };
    data: null;
  };
  "loginUser.list": {
    kind: "call";
    param: {
      keyword?: string;
      startTime?: string;
      endTime?: string;
    };
    data: {
      loginCount: number;
      lastLoginTime: string;
      lastLoginIp: string;
      online: boolean;
      userId: number;
      loginName: string;
      userName: string;
      displayName: string;
      status: string;
      organizationName: string;
      roleCode: string;
      roleName: string;
    }[];
  };
  "loginUser.allList": {
    kind: "call";
    param: {
      keyword?: string;
      status?: "0" | "1";
    };
    data: {
      lastLoginTime: string;
      userId: number;
      loginName: string;
      userName: string;
      displayName: string;
      status: string;
      organizationName: string;
      roleCode: string;
      roleName: string;
    }[];
  };
  "loginUser.roleList": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
    };
    data: {
      roleCode: string;
      roleName: string;
      userCount: number;
      activeUserCount: number;
    }[];
  };
  "loginUser.board": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
    };
    data: {
      userCount: number;
      enabledCount: number;
      disabledCount: number;
      onlineCount: number;
      activeCount: number;
      activeRate: number;
      neverLoggedInCount: number;
      lockedCount: number;
      pendingPasswordCount: number;
    };
  };
  "system.user.page": {
    kind: "page";
    param: {
      keyword?: string;
      status?: "0" | "1";
      roleCode?: string;
      organizationCode?: string;
    };
    data: {
      records: {
        id: number;
        loginName: string;
        userName: string;
        phoneNumber: string;
        mail: string;
        roleCode: string;
        organizationCode: string;
        organizationName: string;
        status: string;
        createTime: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "system.user.detail": {
    kind: "call";
    param: {
      id: number;
    };
    data: {
      recentLogins: {
        loginTime: string;
        loginResult: string;
        ip: string;
        userAgent: string;
      }[];
      id: number;
      loginName: string;
      userName: string;
      phoneNumber: string;
      mail: string;
      roleCode: string;
      organizationCode: string;
      organizationName: string;
      status: string;
      createTime: string;
    };
  };
  "system.user.insert": {
    kind: "call";
    param: {
      user: {
        loginName: string;
        userName: string;
        phoneNumber?: string | null;
        mail?: string | null;
        organizationCode: string;
        roleCode: string;
        status?: "0" | "1";
      };
    };
    data: {
      id: number;
    };
  };
  "system.user.modify": {
    kind: "call";
    param: {
      id: number;
      user: {
        loginName: string;
        userName: string;
        phoneNumber?: string | null;
        mail?: string | null;
        organizationCode: string;
        roleCode: string;
        status?: "0" | "1";
      };
    };
    data: null;
  };
  "system.user.delete": {
    kind: "call";
    param: {
      /**
       * @minItems 1
       * @maxItems 500
       */
      ids: number[];
    };
    data: null;
  };
  "system.user.export": {
    kind: "blob";
    param: {
      keyword?: string;
      status?: "0" | "1";
      roleCode?: string;
      organizationCode?: string;
    };
    data: unknown;
  };
  "system.user.changeStatus": {
    kind: "call";
    param: {
      id: number;
      status: "0" | "1";
    };
    data: null;
  };
  "user.avatar.update": {
    kind: "call";
    param: string;
    data: null;
  };
  "user.name.update": {
    kind: "call";
    param: string;
    data: null;
  };
  "user.password.reset": {
    kind: "call";
    param: {
      loginName: string;
      password: string;
    };
    data: null;
  };
  "user.phone.reset": {
    kind: "call";
    param: {
      loginName: string;
      phoneNumber?: string | null;
    };
    data: null;
  };
  "user.mail.modify": {
    kind: "call";
    param: {
      mail: string;
      code: string;
    };
    data: null;
  };
  "verification.mail.get": {
    kind: "call";
    param: Record<string, never>;
    data: string;
  };
  "verification.captcha.check": {
    kind: "call";
    param: {
      uuid: string;
      code: string;
    };
    data: null;
  };
  "verification.captcha.get": {
    kind: "call";
    param: Record<string, never>;
    data: {
      uuid: string;
      image: string;
      expiresIn: number;
    };
  };
  "dev.captcha": {
    kind: "call";
    param: {
      uuid: string;
    };
    data: string;
  };
  "verification.phone.verify": {
    kind: "call";
    param: {
      uuid: string;
      code: string;
    };
    data: null;
  };
  "user.phone.modify": {
    kind: "call";
    param: {
      phoneNumber: string;
      code: string;
    };
    data: null;
  };
  "openApi.key.get": {
    kind: "call";
    param: Record<string, never>;
    data: string;
  };
  "openApi.key.reset": {
    kind: "call";
    param: {
      accessKey?: string;
    };
    data: {
      accessKey: string;
      secret: string;
      resetTime: string;
    };
  };
  "openApi.call.page": {
    kind: "page";
    param: {
      operation?: string;
      code?: string;
      accessKey?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
    };
    data: {
      records: {
        id: number;
        tenantCode: string;
        accessKey: string;
        operation: string;
        method: string;
        path: string;
        code: string;
        message: string;
        clientIp: string;
        userAgent: string;
        requestId: string;
        durationMs: number;
        callTime: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "openApi.webhook.page": {
    kind: "page";
    param: {
      keyword?: string;
    };
    data: {
      records: {
        code: string;
        name: string;
        url: string;
        events: ("alarm.raised" | "alarm.recovered" | "device.offline" | "device.online")[];
        eventNames: string;
        enabled: boolean;
        deliveredCount: number;
        failedCount: number;
        lastState: string;
        lastTime: string;
        createTime: string;
        updateTime: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "openApi.webhook.insert": {
    kind: "call";
    param: {
      name: string;
      url: string;
      /**
       * @minItems 1
       * @maxItems 4
       */
      events: ("alarm.raised" | "alarm.recovered" | "device.online" | "device.offline")[];
      enabled?: boolean;
    };
    data: {
      code: string;
      secret: string;
    };
  };
  "openApi.webhook.modify": {
    kind: "call";
    param: {
      code: string;
      name: string;
      url: string;
      /**
       * @minItems 1
       * @maxItems 4
       */
      events: ("alarm.raised" | "alarm.recovered" | "device.online" | "device.offline")[];
      enabled?: boolean;
    };
    data: null;
  };
  "openApi.webhook.delete": {
    kind: "call";
    param: {
      code: string;
    };
    data: null;
  };
  "openApi.webhook.secret.reset": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      code: string;
      secret: string;
    };
  };
  "openApi.webhook.delivery.page": {
    kind: "page";
    param: {
      webhookCode?: string;
      event?: "alarm.raised" | "alarm.recovered" | "device.online" | "device.offline";
      state?: "pending" | "sending" | "sent" | "failed";
    };
    data: {
      records: {
        id: number;
        webhookCode: string;
        webhookName: string;
        url: string;
        event: "alarm.raised" | "alarm.recovered" | "device.offline" | "device.online";
        eventName: string;
        body: string;
        state: string;
        attempts: number;
        nextAttemptTime: string;
        deliveredTime: string;
        lastStatus: number | null;
        lastError: string;
        createTime: string;
        attemptLog: {
          attempt: number;
          outcome: string;
          statusCode: number | null;
          error: string;
          durationMs: number;
          attemptTime: string;
        }[];
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "user.org.get": {
    kind: "call";
    param: {
      userId: number;
    };
    data: {
      userId: number;
      loginName: string;
      userName: string;
      organizationCodes: string[];
      organizations: {
        organizationCode: string;
        organizationName: string;
        organizationType: number;
      }[];
    };
  };
  "user.org.set": {
    kind: "call";
    param: {
      userId: number;
      /**
       * @minItems 1
       * @maxItems 20
       */
      organizationCodes: string[];
    };
    data: null;
  };
  "tag.tenantConstant.find": {
    kind: "call";
    param: {
      tenantCode?: string;
    };
    data: {
      organizationCode: string;
      organizationName: string;
      scope: "platform" | "tenant";
      constants: {
        key: string;
        name: string;
        group: "业务名称" | "平台与大屏" | "设备字段";
        defaultValue: string;
        value: string;
        customised: boolean;
      }[];
      updateTime: string;
      updatedBy: string;
      [k: string]:
        | string
        | "platform"
        | "tenant"
        | {
            key: string;
            name: string;
            group: "业务名称" | "平台与大屏" | "设备字段";
            defaultValue: string;
            value: string;
            customised: boolean;
          }[]
        | undefined;
    };
  };
  "tag.tenantConstant.save": {
    kind: "call";
    param: {
      tenantCode?: string;
      platformName?: string;
      bigScreenTitle?: string;
      bigScreenSubtitle?: string;
      deviceCodeLabel?: string;
      deviceNameLabel?: string;
      deviceAddressLabel?: string;
      gatewayLabel?: string;
      productLabel?: string;
      projectLabel?: string;
      areaLabel?: string;
      alarmLabel?: string;
      repairOrderLabel?: string;
      patrolLabel?: string;
    };
    data: {
      organizationCode: string;
      organizationName: string;
      scope: "platform" | "tenant";
      constants: {
        key: string;
        name: string;
        group: "业务名称" | "平台与大屏" | "设备字段";
        defaultValue: string;
        value: string;
        customised: boolean;
      }[];
      updateTime: string;
      updatedBy: string;
      [k: string]:
        | string
        | "platform"
        | "tenant"
        | {
            key: string;
            name: string;
            group: "业务名称" | "平台与大屏" | "设备字段";
            defaultValue: string;
            value: string;
            customised: boolean;
          }[]
        | undefined;
    };
  };
  "activeForm.template.page": {
    kind: "page";
    param: {
      kind?: 1 | 2 | 3;
      keyword?: string;
      state?: ("draft" | "published" | "revising") | string;
    };
    data: {
      records: {
        id: number;
        kind: 1 | 2 | 3;
        tenantCode: string;
        tenantName: string;
        name: string;
        description: string;
        state: "draft" | "published" | "revising";
        publishedVersion: number | null;
        draftVersion: number | null;
        latestVersion: number;
        fieldCount: number;
        usedCount: number;
        creatorName: string;
        createTime: string;
        updateTime: string;
        publishTime: string;
        canModify: boolean;
        canPublish: boolean;
        canDelete: boolean;
        canDuplicate: boolean;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "activeForm.template.insert": {
    kind: "call";
    param: {
      kind: 1 | 2 | 3;
      name: string;
      description?: string;
      /**
       * @maxItems 50
       */
      fields: {
        key: string;
        label: string;
        type: "text" | "textarea" | "number" | "select" | "checkbox" | "date" | "photo";
        required?: boolean;
        placeholder?: string;
        help?: string;
        /**
         * @maxItems 50
         */
        options?: {
          value: string;
          label: string;
        }[];
        min?: number | null;
        max?: number | null;
        precision?: number | null;
        unit?: string;
        maxLength?: number | null;
        maxCount?: number | null;
      }[];
    };
    data: {
      id: number;
      version: number;
    };
  };
  "activeForm.template.modify": {
    kind: "call";
    param: {
      id: number;
      name: string;
      description?: string;
      /**
       * @maxItems 50
       */
      fields: {
        key: string;
        label: string;
        type: "text" | "textarea" | "number" | "select" | "checkbox" | "date" | "photo";
        required?: boolean;
        placeholder?: string;
        help?: string;
        /**
         * @maxItems 50
         */
        options?: {
          value: string;
          label: string;
        }[];
        min?: number | null;
        max?: number | null;
        precision?: number | null;
        unit?: string;
        maxLength?: number | null;
        maxCount?: number | null;
      }[];
    };
    data: {
      id: number;
      version: number | null;
    };
  };
  "activeForm.template.get": {
    kind: "call";
    param: {
      id: number;
      version?: number;
      published?: boolean;
    };
    data: {
      version: number;
      versionState: "draft" | "published" | "superseded";
      fields: {
        key: string;
        label: string;
        type: "checkbox" | "date" | "number" | "photo" | "select" | "text" | "textarea";
        required?: boolean;
        placeholder?: string;
        help?: string;
        options?: {
          value: string;
          label: string;
        }[];
        min?: number | null;
        max?: number | null;
        precision?: number | null;
        unit?: string;
        maxLength?: number | null;
        maxCount?: number | null;
      }[];
      versions: {
        version: number;
        state: "draft" | "published" | "superseded";
        fieldCount: number;
        editorName: string;
        publisherName: string;
        updateTime: string;
        publishTime: string;
      }[];
      id: number;
      kind: 1 | 2 | 3;
      tenantCode: string;
      tenantName: string;
      name: string;
      description: string;
      state: "draft" | "published" | "revising";
      publishedVersion: number | null;
      draftVersion: number | null;
      latestVersion: number;
      fieldCount: number;
      usedCount: number;
      creatorName: string;
      createTime: string;
      updateTime: string;
      publishTime: string;
      canModify: boolean;
      canPublish: boolean;
      canDelete: boolean;
      canDuplicate: boolean;
    };
  };
  "activeForm.template.list": {
    kind: "call";
    param: {
      kind?: 1 | 2 | 3;
    };
    data: {
      id: number;
      kind: 1 | 2 | 3;
      name: string;
      version: number | null;
      label: string;
      tenantCode: string;
    }[];
  };
  "activeForm.template.publish": {
    kind: "call";
    param: {
      id: number;
    };
    data: {
      id: number;
      version: number;
    };
  };
  "activeForm.template.duplicate": {
    kind: "call";
    param: {
      id: number;
      version?: number;
      name?: string;
    };
    data: {
      id: number;
      version: number;
      name: string;
    };
  };
  "activeForm.template.delete": {
    kind: "call";
    param: {
      id: number;
    };
    data:
      | {
          deleted: "template";
          version?: null;
        }
      | {
          deleted: "draft";
          version: number;
        };
  };
  "activeForm.template.demoDownload": {
    kind: "blob";
    param: {
      kind?: 1 | 2 | 3;
      id?: number;
      version?: number;
    };
    data: unknown;
  };
  "system.file.upload": {
    kind: "upload";
    param: Record<string, never>;
    data: {
      url: string;
    };
  };
  "system.file.ticket": {
    kind: "call";
    param: {
      /**
       * @minItems 1
       * @maxItems 200
       */
      paths: string[];
    };
    data: {
      urls: {
        [k: string]: string | undefined;
      };
      expiresAt: string;
    };
  };
  "system.status": {
    kind: "call";
    param: Record<string, never>;
    data: {
      version: string;
      engine: "pglite" | "postgresql";
      databaseVersion: string;
      startedAt: string;
      uptimeSeconds: number;
      databaseBytes: number;
      databaseMiB: number;
      pool: {
        total: number;
        idle: number;
        waiting: number;
      } | null;
      slowestOperations: {
        title: string;
        operation: string;
        count: number;
        averageMs: number;
        p95Ms: number;
        maxMs: number;
      }[];
      outboxLastHour: number;
    };
  };
  "app.upgradePackage.list": {
    kind: "call";
    param: {
      platform?: "android" | "ios";
      updateType?: "forced" | "hot";
    };
    data: {
      id: number;
      platform: string;
      updateType: string;
      version: string;
      buildNumber: number;
      downloadUrl: string;
      packageSize: number | null;
      releaseNotes: string;
      minSupportedVersion: string;
      forced: boolean;
      publishedAt: string;
    }[];
  };
  "loginLog.statistics.dynamic": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
    };
    data: {
      day: string;
      loginCount: number;
      activeUsers: number;
    }[];
  };
  "loginLog.statistics.dashboard": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
    };
    data: {
      loginCount: number;
      activeUsers: number;
      failureCount: number;
      successRate: number;
    };
  };
  "loginLog.statistics.tenant": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
    };
    data: {
      tenantName: string;
      loginCount: number;
    }[];
  };
  "loginLog.statistics.active": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
    };
    data: {
      loginName: string;
      userName: string;
      loginCount: number;
      lastLoginTime: string;
    }[];
  };
  "loginLog.statistics.activity": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
    };
    data: {
      level: "high" | "low" | "medium" | "silent";
      levelName: string;
      userCount: number;
    }[];
  };
  "loginLog.statistics.queryUsage": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
    };
    data: {
      usageUrl: string;
      visits: number;
    }[];
  };
  "loginLog.statistics.year": {
    kind: "call";
    param: {
      year?: number;
      startTime?: string;
      endTime?: string;
    };
    data: {
      month: string;
      monthName: string;
      loginCount: number;
      activeUsers: number;
      failureCount: number;
    }[];
  };
  "system.loginLog.page": {
    kind: "page";
    param: {
      loginName?: string;
      loginResult?: "success" | "failure" | "locked";
      ip?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
    };
    data: {
      records: {
        id: number;
        loginName: string;
        userName: string;
        loginResult: string;
        ip: string;
        userAgent: string;
        loginTime: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "system.loginLog.export": {
    kind: "blob";
    param: {
      loginName?: string;
      loginResult?: "success" | "failure" | "locked";
      ip?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
    };
    data: unknown;
  };
  "usage.message.save": {
    kind: "call";
    param: {
      actionType: string;
      activeTime: number;
      extraItem?: string;
      pendingTime?: number;
      platform: "web" | "app" | "mini";
      usageUrl: string;
    };
    data: null;
  };
  "usage.message.page": {
    kind: "page";
    param: {
      userId?: number;
      loginName?: string;
      usageUrl?: string;
      platform?: "web" | "app" | "mini";
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
    };
    data: {
      records: {
        id: number;
        loginName: string;
        userName: string;
        organizationName: string;
        actionType: string;
        usageUrl: string;
        pageName: string;
        platform: string;
        extraItem: string;
        activeTime: string;
        pendingSeconds: number;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "notification.list": {
    kind: "call";
    param: {
      tabType: 1 | 2;
      pageSize?: number;
    };
    data: {
      id: number;
      notificationTitle: string;
      notificationDescription: string;
      notificationDateTime: string;
      hasRead: boolean;
      notificationStatus: "0" | "1";
      tabType: 1 | 2;
    }[];
  };
  "notification.count": {
    kind: "call";
    param: Record<string, never>;
    data: {
      dailyCount: number;
      systemCount: number;
    };
  };
  "notification.tab.readAll": {
    kind: "call";
    param: {
      tabType: 1 | 2;
    };
    data: null;
  };
  "notification.read": {
    kind: "call";
    param: {
      id: number | string;
    };
    data: null;
  };
  "notification.detail": {
    kind: "call";
    param: {
      id: number | string;
    };
    data: {
      id: number;
      notificationTitle: string;
      notificationDescription: string;
      notificationDateTime: string;
      hasRead: boolean;
      notificationStatus: "0" | "1";
      tabType: 1 | 2;
    };
  };
  "notification.daily.page": {
    kind: "page";
    param: {
      notificationStatus?: "0" | "1";
      keyword?: string;
    };
    data: {
      records: {
        id: number;
        notificationTitle: string;
        notificationDescription: string;
        notificationDateTime: string;
        hasRead: boolean;
        notificationStatus: "0" | "1";
        tabType: 1 | 2;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "notification.system.page": {
    kind: "page";
    param: {
      notificationStatus?: "0" | "1";
      keyword?: string;
    };
    data: {
      records: {
        id: number;
        notificationTitle: string;
        notificationDescription: string;
        notificationDateTime: string;
        hasRead: boolean;
        notificationStatus: "0" | "1";
        tabType: 1 | 2;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "notification.mobile.page": {
    kind: "page";
    param: {
      tabType?: 1 | 2;
      notificationStatus?: "0" | "1";
      keyword?: string;
    };
    data: {
      records: {
        id: number;
        notificationTitle: string;
        notificationDescription: string;
        notificationDateTime: string;
        hasRead: boolean;
        notificationStatus: "0" | "1";
        tabType: 1 | 2;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "notification.phoneCode.sms": {
    kind: "call";
    param: string;
    data: string;
  };
  "notification.phoneCode.call": {
    kind: "call";
    param: string;
    data: string;
  };
  "notification.maintenance.page": {
    kind: "page";
    param: {
      keyword?: string;
      state?: "draft" | "published";
      tabType?: 1 | 2;
      audienceType?: "all" | "organization" | "role";
      /**
       * @minItems 2
       * @maxItems 2
       */
      createTime?: string[];
    };
    data: {
      records: {
        id: number;
        code: string;
        title: string;
        tabType: number;
        body: string;
        summary: string;
        audienceType: "all" | "organization" | "role";
        organizationCodes: string[];
        roleCodes: string[];
        audienceSummary: string;
        state: "draft" | "published";
        recipientCount: number;
        readCount: number;
        unreadCount: number;
        organizationCode: string;
        organizationName: string;
        createdBy: string;
        createTime: string;
        updateTime: string;
        publishedBy: string;
        publishTime: string | null;
        canModify: boolean;
        canDelete: boolean;
        canPublish: boolean;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "notification.maintenance.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      id: number;
      code: string;
      title: string;
      tabType: number;
      body: string;
      summary: string;
      audienceType: "all" | "organization" | "role";
      organizationCodes: string[];
      roleCodes: string[];
      audienceSummary: string;
      state: "draft" | "published";
      recipientCount: number;
      readCount: number;
      unreadCount: number;
      organizationCode: string;
      organizationName: string;
      createdBy: string;
      createTime: string;
      updateTime: string;
      publishedBy: string;
      publishTime: string | null;
      canModify: boolean;
      canDelete: boolean;
      canPublish: boolean;
    };
  };
  "notification.maintenance.insert": {
    kind: "call";
    param: {
      notification: {
        title: string;
        tabType: 1 | 2;
        audienceType: "all" | "organization" | "role";
        /**
         * @maxItems 50
         */
        organizationCodes?: string[];
        /**
         * @maxItems 20
         */
        roleCodes?: string[];
        body: string;
      };
    };
    data: {
      code: string;
    };
  };
  "notification.maintenance.modify": {
    kind: "call";
    param: {
      code: string;
      notification: {
        title: string;
        tabType: 1 | 2;
        audienceType: "all" | "organization" | "role";
        /**
         * @maxItems 50
         */
        organizationCodes?: string[];
        /**
         * @maxItems 20
         */
        roleCodes?: string[];
        body: string;
      };
    };
    data: {
      code: string;
    };
  };
  "notification.maintenance.delete": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      code: string;
    };
  };
  "notification.maintenance.publish": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      code: string;
      recipientCount: number;
    };
  };
  "notification.send.page": {
    kind: "page";
    param: {
      keyword?: string;
      state?: "pending" | "sent" | "failed";
      channelType?: "dingtalk" | "feishu" | "mail" | "sms" | "voice" | "wechat";
      sendCode?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      createTime?: string[];
    };
    data: {
      records: {
        id: number;
        sendCode: string;
        channelCode: string;
        channelType: "dingtalk" | "feishu" | "mail" | "sms" | "voice" | "wechat";
        channelName: string;
        title: string;
        content: string;
        message: string;
        audienceType: string;
        audienceSummary: string;
        userId: number | null;
        recipientName: string;
        address: string;
        state: "failed" | "pending" | "sent";
        failReason: string;
        attempts: number;
        scheduledTime: string;
        sentTime: string | null;
        createdBy: string;
        createTime: string;
        updateTime: string;
        canResend: boolean;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "notification.send.insert": {
    kind: "call";
    param: {
      send: {
        channelCode: string;
        title: string;
        content: string;
        audienceType: "user" | "organization" | "role";
        /**
         * @maxItems 500
         */
        userIds?: number[];
        /**
         * @maxItems 50
         */
        organizationCodes?: string[];
        /**
         * @maxItems 20
         */
        roleCodes?: string[];
        /**
         * @maxItems 20
         */
        variables?: {
          name: string;
          value?: string;
        }[];
        sendTime?: string | null;
      };
    };
    data: {
      code: string;
      total: number;
      sent: number;
      failed: number;
      pending: number;
    };
  };
  "notification.send.resend": {
    kind: "call";
    param: {
      id: number;
    };
    data: {
      id: number;
      state: string;
    };
  };
  "notification.recipient.list": {
    kind: "call";
    param: {
      keyword?: string;
    };
    data: {
      id: number;
      name: string;
      userName: string;
      organizationName: string;
      hasPhone: boolean;
      hasMail: boolean;
      hasWechat: boolean;
    }[];
  };
  "notification.channel.page": {
    kind: "page";
    param: {
      keyword?: string;
      channelType?: "dingtalk" | "feishu" | "mail" | "sms" | "voice" | "wechat";
      enabled?: "0" | "1";
    };
    data: {
      records: {
        template: string;
        templateVariables: string[];
        variables: {
          name: string;
          value: string;
        }[];
        summary: string;
        enabled: string;
        remark: string;
        ownerName: string;
        lastTestTime: string | null;
        lastTestBy: string;
        createdBy: string;
        createTime: string;
        updateTime: string;
        secret?: string;
        mailPassword?: string;
        accessKeySecret?: string;
        appSecret?: string;
        webhook?: string | null;
        smtpHost?: string | null;
        smtpPort?: number | null;
        smtpTls?: boolean | null;
        mailAccount?: string | null;
        sender?: string | null;
        provider?: "aliyun" | "huawei" | "tencent" | null;
        accessKeyId?: string | null;
        signName?: string | null;
        templateCode?: string | null;
        appId?: string | null;
        templateId?: string | null;
        id: number;
        code: string;
        name: string;
        channelType: "dingtalk" | "feishu" | "mail" | "sms" | "voice" | "wechat";
        channelTypeName: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "notification.channel.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      template: string;
      templateVariables: string[];
      variables: {
        name: string;
        value: string;
      }[];
      summary: string;
      enabled: string;
      remark: string;
      ownerName: string;
      lastTestTime: string | null;
      lastTestBy: string;
      createdBy: string;
      createTime: string;
      updateTime: string;
      secret?: string;
      mailPassword?: string;
      accessKeySecret?: string;
      appSecret?: string;
      webhook?: string | null;
      smtpHost?: string | null;
      smtpPort?: number | null;
      smtpTls?: boolean | null;
      mailAccount?: string | null;
      sender?: string | null;
      provider?: "aliyun" | "huawei" | "tencent" | null;
      accessKeyId?: string | null;
      signName?: string | null;
      templateCode?: string | null;
      appId?: string | null;
      templateId?: string | null;
      id: number;
      code: string;
      name: string;
      channelType: "dingtalk" | "feishu" | "mail" | "sms" | "voice" | "wechat";
      channelTypeName: string;
    };
  };
  "notification.channel.insert": {
    kind: "call";
    param: {
      channel: {
        name: string;
        channelType: "dingtalk" | "feishu" | "mail" | "sms" | "voice" | "wechat";
        template: string;
        remark?: string;
        enabled?: boolean;
        webhook?: string;
        secret?: string;
        smtpHost?: string;
        smtpPort?: number | null;
        smtpTls?: boolean;
        mailAccount?: string;
        mailPassword?: string;
        sender?: string;
        provider?: "" | "aliyun" | "tencent" | "huawei";
        accessKeyId?: string;
        accessKeySecret?: string;
        signName?: string;
        templateCode?: string;
        appId?: string;
        appSecret?: string;
        templateId?: string;
      };
    };
    data: {
      code: string;
    };
  };
  "notification.channel.modify": {
    kind: "call";
    param: {
      code: string;
      channel: {
        name: string;
        channelType: "dingtalk" | "feishu" | "mail" | "sms" | "voice" | "wechat";
        template: string;
        remark?: string;
        enabled?: boolean;
        webhook?: string;
        secret?: string;
        smtpHost?: string;
        smtpPort?: number | null;
        smtpTls?: boolean;
        mailAccount?: string;
        mailPassword?: string;
        sender?: string;
        provider?: "" | "aliyun" | "tencent" | "huawei";
        accessKeyId?: string;
        accessKeySecret?: string;
        signName?: string;
        templateCode?: string;
        appId?: string;
        appSecret?: string;
        templateId?: string;
      };
    };
    data: {
      code: string;
    };
  };
  "notification.channel.delete": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      code: string;
    };
  };
  "notification.channel.test": {
    kind: "call";
    param: {
      code: string;
      target?: string;
      /**
       * @maxItems 20
       */
      variables?: {
        name: string;
        value?: string;
      }[];
    };
    data: {
      code: string;
      channelType: "dingtalk" | "feishu" | "mail" | "sms" | "voice" | "wechat";
      target: string;
      content: string;
    };
  };
  "notification.channel.enable": {
    kind: "call";
    param: {
      code: string;
      enabled: boolean;
    };
    data: {
      code: string;
      enabled: string;
    };
  };
  "notification.channel.list": {
    kind: "call";
    param: {
      channelType?: "dingtalk" | "feishu" | "mail" | "sms" | "voice" | "wechat";
    };
    data: {
      code: string;
      name: string;
      channelType: "dingtalk" | "feishu" | "mail" | "sms" | "voice" | "wechat";
      label: string;
      template: string;
      templateVariables: string[];
    }[];
  };
  "notification.delivery.page": {
    kind: "page";
    param: {
      channel?: "dingtalk" | "feishu" | "mail" | "sms" | "voice" | "wechat";
      state?: "pending" | "sending" | "sent" | "failed";
    };
    data: {
      records: {
        id: number;
        channel: "dingtalk" | "feishu" | "mail" | "sms" | "voice" | "wechat";
        channelName: string;
        target: string;
        content: string;
        tenantCode: string;
        state: string;
        attempts: number;
        nextAttemptTime: string;
        deliveredTime: string;
        lastError: string;
        createTime: string;
        attemptLog: {
          attempt: number;
          outcome: string;
          error: string;
          durationMs: number;
          attemptTime: string;
        }[];
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "device.page": {
    kind: "page";
    param: {
      keyword?: string;
      productCode?: string;
      onlineState?: "online" | "offline" | "inactive";
      healthState?: "healthy" | "subhealthy" | "faulty";
      organizationCode?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
    };
    data: {
      records: {
        id: number;
        code: string;
        name: string;
        productCode: string;
        productName: string;
        model: string;
        nodeType: string;
        organizationCode: string;
        organizationName: string;
        imei: string;
        firmwareVersion: string;
        onlineState: "online" | "offline" | "inactive";
        healthState: "healthy" | "subhealthy" | "faulty";
        healthScore: number;
        batteryPowered: boolean;
        batteryLevel: number | null;
        batteryRatio: number | null;
        batteryState: "normal" | "low" | "exhausted" | null;
        signalStrength: number | null;
        temperature: number | null;
        longitude: number | null;
        latitude: number | null;
        address: string;
        gatewayCode: string;
        iccid: string;
        cardBinding: "bound" | "unbound";
        cardOperator: string;
        sleeping: boolean;
        sleepSince: string | null;
        lastSeenTime: string | null;
        activatedTime: string | null;
        createTime: string;
        remark: string;
        followed: boolean;
        followTime: string | null;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "device.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      id: number;
      code: string;
      name: string;
      productCode: string;
      productName: string;
      model: string;
      nodeType: string;
      organizationCode: string;
      organizationName: string;
      imei: string;
      firmwareVersion: string;
      onlineState: "online" | "offline" | "inactive";
      healthState: "healthy" | "subhealthy" | "faulty";
      healthScore: number;
      batteryPowered: boolean;
      batteryLevel: number | null;
      batteryRatio: number | null;
      batteryState: "normal" | "low" | "exhausted" | null;
      signalStrength: number | null;
      temperature: number | null;
      longitude: number | null;
      latitude: number | null;
      address: string;
      gatewayCode: string;
      iccid: string;
      cardBinding: "bound" | "unbound";
      cardOperator: string;
      sleeping: boolean;
      sleepSince: string | null;
      lastSeenTime: string | null;
      activatedTime: string | null;
      createTime: string;
      remark: string;
      followed: boolean;
      followTime: string | null;
      displayTags: string[];
      categoryName: string;
      protocol: string;
      manufacturer: string;
      gatewayName: string;
      subDeviceCount: number;
      latestReport: string;
      latestReportTime: string | null;
      recentCommands: {
        id: number;
        commandType: string;
        commandText: string;
        commandHex: string;
        state: string;
        createdBy: string;
        createTime: string;
      }[];
    };
  };
  "device.insert": {
    kind: "call";
    param: {
      device: {
        code: string;
        name: string;
        productCode: string;
        organizationCode: string;
        imei?: string | null;
        longitude?: number | null;
        latitude?: number | null;
        address?: string | null;
        remark?: string | null;
      };
    };
    data: {
      id: number;
      code: string;
    };
  };
  "device.modify": {
    kind: "call";
    param: {
      code: string;
      device: {
        code?: string;
        name: string;
        productCode: string;
        organizationCode: string;
        imei?: string | null;
        longitude?: number | null;
        latitude?: number | null;
        address?: string | null;
        remark?: string | null;
      };
    };
    data: null;
  };
  "device.delete": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      deleted: number;
    };
  };
  "device.export": {
    kind: "blob";
    param: {
      keyword?: string;
      productCode?: string;
      onlineState?: "online" | "offline" | "inactive";
      healthState?: "healthy" | "subhealthy" | "faulty";
      organizationCode?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
    };
    data: unknown;
  };
  "device.batchDelete": {
    kind: "call";
    param: {
      /**
       * @minItems 1
       * @maxItems 500
       */
      codes: string[];
    };
    data: {
      deleted: number;
    };
  };
  "device.transfer": {
    kind: "call";
    param: {
      /**
       * @minItems 1
       * @maxItems 500
       */
      codes: string[];
      organizationCode: string;
    };
    data: {
      transferred: number;
    };
  };
  "device.statistics": {
    kind: "call";
    param: {
      keyword?: string;
      productCode?: string;
      onlineState?: "online" | "offline" | "inactive";
      healthState?: "healthy" | "subhealthy" | "faulty";
      organizationCode?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
    };
    data: {
      onlineRate: number;
      online: number;
      offline: number;
      total: number;
      inactive: number;
      healthy: number;
      subhealthy: number;
      faulty: number;
      lowBattery: number;
      exhaustedBattery: number;
      sleeping: number;
      followed: number;
    };
  };
  "device.data.page": {
    kind: "page";
    param: {
      code: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
    };
    data: {
      records: {
        id: string;
        reportTime: string;
        summary: string;
        batteryLevel: number | null;
        signalStrength: number | null;
        temperature: number | null;
        [k: string]: number | string | null | undefined;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "device.telemetry.series": {
    kind: "call";
    param: {
      code: string;
      lastMinutes?: number;
      startTime?: string;
      endTime?: string;
      points?: number;
    };
    data: {
      deviceCode: string;
      startTime: string;
      endTime: string;
      bucketSeconds: number;
      series: {
        key: string;
        title: string;
        unit: string;
        points: {
          time: string;
          avg: number;
          min: number;
          max: number;
          count: number;
        }[];
        latest: {
          time: string;
          value: number;
        };
      }[];
    };
  };
  "device.credential.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      deviceCode: string;
      issued: boolean;
      issuedTime: string | null;
      reportPath: string;
    };
  };
  "device.credential.reset": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      deviceCode: string;
      issued: boolean;
      issuedTime: string | null;
      reportPath: string;
      secret: string;
    };
  };
  "device.batchInsert": {
    kind: "call";
    param: {
      fileUrl: string;
    };
    data: {
      id: number;
      total: number;
      inserted: number;
      failed: number;
      errors: {
        row: number;
        message: string;
      }[];
    };
  };
  "device.importTemplate": {
    kind: "blob";
    param: Record<string, never>;
    data: unknown;
  };
  "device.import.page": {
    kind: "page";
    param: {
      result?: "success" | "partial" | "failed";
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
    };
    data: {
      records: {
        id: number;
        fileName: string;
        organizationName: string;
        total: number;
        inserted: number;
        failed: number;
        result: string;
        errors: {
          row: number;
          message: string;
        }[];
        errorSummary: string;
        createdBy: string;
        createTime: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "device.care.page": {
    kind: "page";
    param: {
      keyword?: string;
      productCode?: string;
      onlineState?: "online" | "offline" | "inactive";
      healthState?: "healthy" | "subhealthy" | "faulty";
      organizationCode?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
    };
    data: {
      records: {
        id: number;
        code: string;
        name: string;
        productCode: string;
        productName: string;
        model: string;
        nodeType: string;
        organizationCode: string;
        organizationName: string;
        imei: string;
        firmwareVersion: string;
        onlineState: string;
        healthState: string;
        healthScore: number;
        batteryPowered: boolean;
        batteryLevel: number | null;
        batteryRatio: number | null;
        batteryState: "exhausted" | "low" | "normal" | null;
        signalStrength: number | null;
        temperature: number | null;
        longitude: number | null;
        latitude: number | null;
        address: string;
        gatewayCode: string;
        iccid: string;
        cardBinding: string;
        cardOperator: string;
        sleeping: boolean;
        sleepSince: string | null;
        lastSeenTime: string | null;
        activatedTime: string | null;
        createTime: string;
        remark: string;
        followed: boolean;
        followTime: string | null;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "device.care.add": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      code: string;
      followed: boolean;
    };
  };
  "device.care.remove": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      code: string;
      followed: boolean;
    };
  };
  "device.battery.page": {
    kind: "page";
    param: {
      keyword?: string;
      productCode?: string;
      onlineState?: "online" | "offline" | "inactive";
      healthState?: "healthy" | "subhealthy" | "faulty";
      organizationCode?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
      batteryState?: "normal" | "low" | "exhausted";
      batteryMin?: number;
      batteryMax?: number;
    };
    data: {
      records: {
        estimatedLife: number;
        id: number;
        code: string;
        name: string;
        productCode: string;
        productName: string;
        model: string;
        nodeType: string;
        organizationCode: string;
        organizationName: string;
        imei: string;
        firmwareVersion: string;
        onlineState: string;
        healthState: string;
        healthScore: number;
        batteryPowered: boolean;
        batteryLevel: number | null;
        batteryRatio: number | null;
        batteryState: "exhausted" | "low" | "normal" | null;
        signalStrength: number | null;
        temperature: number | null;
        longitude: number | null;
        latitude: number | null;
        address: string;
        gatewayCode: string;
        iccid: string;
        cardBinding: string;
        cardOperator: string;
        sleeping: boolean;
        sleepSince: string | null;
        lastSeenTime: string | null;
        activatedTime: string | null;
        createTime: string;
        remark: string;
        followed: boolean;
        followTime: string | null;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "device.battery.export": {
    kind: "blob";
    param: {
      keyword?: string;
      productCode?: string;
      onlineState?: "online" | "offline" | "inactive";
      healthState?: "healthy" | "subhealthy" | "faulty";
      organizationCode?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
      batteryState?: "normal" | "low" | "exhausted";
      batteryMin?: number;
      batteryMax?: number;
    };
    data: unknown;
  };
  "device.card.page": {
    kind: "page";
    param: {
      keyword?: string;
      productCode?: string;
      onlineState?: "online" | "offline" | "inactive";
      healthState?: "healthy" | "subhealthy" | "faulty";
      organizationCode?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
      cardBinding?: "bound" | "unbound";
      iccid?: string;
    };
    data: {
      records: {
        id: number;
        code: string;
        name: string;
        productCode: string;
        productName: string;
        model: string;
        nodeType: string;
        organizationCode: string;
        organizationName: string;
        imei: string;
        firmwareVersion: string;
        onlineState: string;
        healthState: string;
        healthScore: number;
        batteryPowered: boolean;
        batteryLevel: number | null;
        batteryRatio: number | null;
        batteryState: "exhausted" | "low" | "normal" | null;
        signalStrength: number | null;
        temperature: number | null;
        longitude: number | null;
        latitude: number | null;
        address: string;
        gatewayCode: string;
        iccid: string;
        cardBinding: string;
        cardOperator: string;
        sleeping: boolean;
        sleepSince: string | null;
        lastSeenTime: string | null;
        activatedTime: string | null;
        createTime: string;
        remark: string;
        followed: boolean;
        followTime: string | null;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "device.card.bind": {
    kind: "call";
    param: {
      code: string;
      iccid: string;
    };
    data: {
      code: string;
      iccid: string;
      cardOperator: string;
    };
  };
  "device.card.unbind": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      code: string;
      iccid: string;
    };
  };
  "device.card.export": {
    kind: "blob";
    param: {
      keyword?: string;
      productCode?: string;
      onlineState?: "online" | "offline" | "inactive";
      healthState?: "healthy" | "subhealthy" | "faulty";
      organizationCode?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
      cardBinding?: "bound" | "unbound";
      iccid?: string;
    };
    data: unknown;
  };
  "device.distribution.list": {
    kind: "call";
    param: {
      keyword?: string;
      onlineState?: "online" | "offline" | "inactive";
      healthState?: "healthy" | "subhealthy" | "faulty";
      productCode?: string;
      bounds?: {
        west: number;
        south: number;
        east: number;
        north: number;
      };
    };
    data: {
      code: string;
      name: string;
      longitude: number;
      latitude: number;
      onlineState: string;
      healthState: string;
      productName: string;
      address: string;
    }[];
  };
  "device.health.page": {
    kind: "page";
    param: {
      keyword?: string;
      productCode?: string;
      organizationCode?: string;
      onlineState?: "online" | "offline" | "inactive";
      healthState?: "healthy" | "subhealthy" | "faulty";
      scoreMin?: number;
      scoreMax?: number;
    };
    data: {
      records: {
        id: number;
        code: string;
        name: string;
        productCode: string;
        productName: string;
        productModel: string;
        nodeType: string;
        protocol: string;
        organizationCode: string;
        organizationName: string;
        tenantCode: string;
        imei: string;
        firmwareVersion: string;
        onlineState: string;
        healthState: string;
        healthScore: number;
        batteryLevel: number | null;
        batteryRatio: number | null;
        signalStrength: number | null;
        temperature: number | null;
        longitude: number | null;
        latitude: number | null;
        address: string;
        gatewayCode: string;
        iccid: string;
        sleeping: boolean;
        sleepSince: string | null;
        lastSeenTime: string | null;
        activatedTime: string | null;
        deletedTime: string | null;
        deletedBy: string;
        recycleReason: string;
        remark: string;
        createTime: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "device.health.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      trendSampled: boolean;
      trendNote: string;
      errorCount30d: number;
      indicators: {
        id: string;
        indicator: string;
        value: string;
        assessment: "关注" | "异常" | "正常";
        suggestion: string;
      }[];
      recentErrors: {
        id: number;
        code: string;
        errorType: string;
        description: string;
        occurredTime: string;
        state: string;
        handledBy: string;
        handledTime: string | null;
      }[];
      id: number;
      code: string;
      name: string;
      productCode: string;
      productName: string;
      productModel: string;
      nodeType: string;
      protocol: string;
      organizationCode: string;
      organizationName: string;
      tenantCode: string;
      imei: string;
      firmwareVersion: string;
      onlineState: string;
      healthState: string;
      healthScore: number;
      batteryLevel: number | null;
      batteryRatio: number | null;
      signalStrength: number | null;
      temperature: number | null;
      longitude: number | null;
      latitude: number | null;
      address: string;
      gatewayCode: string;
      iccid: string;
      sleeping: boolean;
      sleepSince: string | null;
      lastSeenTime: string | null;
      activatedTime: string | null;
      deletedTime: string | null;
      deletedBy: string;
      recycleReason: string;
      remark: string;
      createTime: string;
    };
  };
  "device.health.export": {
    kind: "blob";
    param: {
      keyword?: string;
      productCode?: string;
      organizationCode?: string;
      onlineState?: "online" | "offline" | "inactive";
      healthState?: "healthy" | "subhealthy" | "faulty";
      scoreMin?: number;
      scoreMax?: number;
    };
    data: unknown;
  };
  "device.health.trend": {
    kind: "call";
    param: {
      code: string;
      days?: number;
    };
    data: {
      code: string;
      days: number;
      sampled: boolean;
      note: string;
      points: {
        id: string;
        date: string;
        healthScore: number;
        healthState: string;
      }[];
    };
  };
  "device.recycle.page": {
    kind: "page";
    param: {
      keyword?: string;
      productCode?: string;
      organizationCode?: string;
      onlineState?: "online" | "offline" | "inactive";
      recycleReason?: "removed" | "replaced" | "scrapped" | "deleted";
      /**
       * @minItems 2
       * @maxItems 2
       */
      deletedTimeRange?: string[];
    };
    data: {
      records: {
        id: number;
        code: string;
        name: string;
        productCode: string;
        productName: string;
        productModel: string;
        nodeType: string;
        protocol: string;
        organizationCode: string;
        organizationName: string;
        tenantCode: string;
        imei: string;
        firmwareVersion: string;
        onlineState: string;
        healthState: string;
        healthScore: number;
        batteryLevel: number | null;
        batteryRatio: number | null;
        signalStrength: number | null;
        temperature: number | null;
        longitude: number | null;
        latitude: number | null;
        address: string;
        gatewayCode: string;
        iccid: string;
        sleeping: boolean;
        sleepSince: string | null;
        lastSeenTime: string | null;
        activatedTime: string | null;
        deletedTime: string | null;
        deletedBy: string;
        recycleReason: string;
        remark: string;
        createTime: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "device.recycle.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      recycledDays: number;
      errorCount: number;
      subDeviceCount: number;
      cameraCount: number;
      restorable: boolean;
      restoreBlocker: string;
      id: number;
      code: string;
      name: string;
      productCode: string;
      productName: string;
      productModel: string;
      nodeType: string;
      protocol: string;
      organizationCode: string;
      organizationName: string;
      tenantCode: string;
      imei: string;
      firmwareVersion: string;
      onlineState: string;
      healthState: string;
      healthScore: number;
      batteryLevel: number | null;
      batteryRatio: number | null;
      signalStrength: number | null;
      temperature: number | null;
      longitude: number | null;
      latitude: number | null;
      address: string;
      gatewayCode: string;
      iccid: string;
      sleeping: boolean;
      sleepSince: string | null;
      lastSeenTime: string | null;
      activatedTime: string | null;
      deletedTime: string | null;
      deletedBy: string;
      recycleReason: string;
      remark: string;
      createTime: string;
    };
  };
  "device.recycle.delete": {
    kind: "call";
    param: {
      /**
       * @minItems 1
       * @maxItems 200
       */
      codes: string[];
    };
    data: {
      deleted: number;
    };
  };
  "device.recycle.restore": {
    kind: "call";
    param: {
      /**
       * @minItems 1
       * @maxItems 200
       */
      codes: string[];
    };
    data: {
      restored: number;
    };
  };
  "device.sleep.page": {
    kind: "page";
    param: {
      keyword?: string;
      productCode?: string;
      organizationCode?: string;
      onlineState?: "online" | "offline" | "inactive";
      /**
       * @minItems 2
       * @maxItems 2
       */
      sleepSinceRange?: string[];
      sleepDaysMin?: number;
    };
    data: {
      records: {
        sleepSeconds: number | null;
        id: number;
        code: string;
        name: string;
        productCode: string;
        productName: string;
        productModel: string;
        nodeType: string;
        protocol: string;
        organizationCode: string;
        organizationName: string;
        tenantCode: string;
        imei: string;
        firmwareVersion: string;
        onlineState: string;
        healthState: string;
        healthScore: number;
        batteryLevel: number | null;
        batteryRatio: number | null;
        signalStrength: number | null;
        temperature: number | null;
        longitude: number | null;
        latitude: number | null;
        address: string;
        gatewayCode: string;
        iccid: string;
        sleeping: boolean;
        sleepSince: string | null;
        lastSeenTime: string | null;
        activatedTime: string | null;
        deletedTime: string | null;
        deletedBy: string;
        recycleReason: string;
        remark: string;
        createTime: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "device.sleep.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      wakeRecords: {
        id: number;
        sleptSince: string | null;
        wokenBy: string;
        wokenTime: string;
        sleptSeconds: number | null;
      }[];
      sleepSeconds: number | null;
      id: number;
      code: string;
      name: string;
      productCode: string;
      productName: string;
      productModel: string;
      nodeType: string;
      protocol: string;
      organizationCode: string;
      organizationName: string;
      tenantCode: string;
      imei: string;
      firmwareVersion: string;
      onlineState: string;
      healthState: string;
      healthScore: number;
      batteryLevel: number | null;
      batteryRatio: number | null;
      signalStrength: number | null;
      temperature: number | null;
      longitude: number | null;
      latitude: number | null;
      address: string;
      gatewayCode: string;
      iccid: string;
      sleeping: boolean;
      sleepSince: string | null;
      lastSeenTime: string | null;
      activatedTime: string | null;
      deletedTime: string | null;
      deletedBy: string;
      recycleReason: string;
      remark: string;
      createTime: string;
    };
  };
  "device.sleep.export": {
    kind: "blob";
    param: {
      keyword?: string;
      productCode?: string;
      organizationCode?: string;
      onlineState?: "online" | "offline" | "inactive";
      /**
       * @minItems 2
       * @maxItems 2
       */
      sleepSinceRange?: string[];
      sleepDaysMin?: number;
    };
    data: unknown;
  };
  "device.sleep.wake": {
    kind: "call";
    param: {
      /**
       * @minItems 1
       * @maxItems 200
       */
      codes: string[];
    };
    data: {
      woken: number;
      wokenBy: string;
      wokenTime: string;
    };
  };
  "device.error.page": {
    kind: "page";
    param: {
      keyword?: string;
      errorType?: "offline_long" | "data_abnormal" | "signal_weak" | "report_missing";
      state?: "pending" | "handled" | "repairing";
      productCode?: string;
      organizationCode?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
    };
    data: {
      records: {
        id: number;
        code: string;
        deviceCode: string;
        deviceName: string;
        productCode: string;
        productName: string;
        organizationCode: string;
        organizationName: string;
        onlineState: string;
        healthState: string;
        healthScore: number;
        errorType: string;
        description: string;
        occurredTime: string;
        state: string;
        handledBy: string;
        handledTime: string | null;
        handleRemark: string;
        repairOrderCode: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "device.error.detail": {
    kind: "call";
    param: {
      id: number;
    };
    data: {
      deviceErrorCount: number;
      previousOccurredTime: string | null;
      id: number;
      code: string;
      deviceCode: string;
      deviceName: string;
      productCode: string;
      productName: string;
      organizationCode: string;
      organizationName: string;
      onlineState: string;
      healthState: string;
      healthScore: number;
      errorType: string;
      description: string;
      occurredTime: string;
      state: string;
      handledBy: string;
      handledTime: string | null;
      handleRemark: string;
      repairOrderCode: string;
    };
  };
  "device.error.export": {
    kind: "blob";
    param: {
      keyword?: string;
      errorType?: "offline_long" | "data_abnormal" | "signal_weak" | "report_missing";
      state?: "pending" | "handled" | "repairing";
      productCode?: string;
      organizationCode?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
    };
    data: unknown;
  };
  "device.error.handle": {
    kind: "call";
    param: {
      id: number;
      remark: string;
    };
    data: {
      id: number;
      state: string;
    };
  };
  "device.error.toRepair": {
    kind: "call";
    param: {
      id: number;
      remark?: string;
    };
    data: {
      id: number;
      state: string;
      repairOrderCode: string;
    };
  };
  "device.feedback.page": {
    kind: "page";
    param: {
      feedbackType?: "app" | "other";
      state?: "pending" | "replied";
      keyword?: string;
      organizationCode?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
    };
    data: {
      records: {
        id: number;
        code: string;
        feedbackType: string;
        organizationCode: string;
        organizationName: string;
        userName: string;
        contact: string;
        appVersion: string;
        phoneModel: string;
        channel: string;
        content: string;
        images: string[];
        imageCount: number;
        firstImage: string;
        state: string;
        reply: string;
        repliedBy: string;
        replyTime: string;
        createTime: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "device.feedback.detail": {
    kind: "call";
    param: {
      id: number;
    };
    data: {
      id: number;
      code: string;
      feedbackType: string;
      organizationCode: string;
      organizationName: string;
      userName: string;
      contact: string;
      appVersion: string;
      phoneModel: string;
      channel: string;
      content: string;
      images: string[];
      imageCount: number;
      firstImage: string;
      state: string;
      reply: string;
      repliedBy: string;
      replyTime: string;
      createTime: string;
    };
  };
  "device.feedback.reply": {
    kind: "call";
    param: {
      id: number;
      reply: string;
    };
    data: null;
  };
  "device.feedback.batchReply": {
    kind: "call";
    param: {
      /**
       * @minItems 1
       * @maxItems 200
       */
      codes: string[];
      reply: string;
    };
    data: {
      replied: number;
      skipped: number;
    };
  };
  "device.feedback.export": {
    kind: "blob";
    param: {
      feedbackType?: "app" | "other";
      state?: "pending" | "replied";
      keyword?: string;
      organizationCode?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
    };
    data: unknown;
  };
  "device.dashboard.historicalSituation": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
    };
    data: {
      day: string;
      online: number | null;
      offline: number | null;
      alarm: number;
    }[];
  };
  "device.temperature.list": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
      limit?: number;
      productCode?: string;
      keyword?: string;
    };
    data: {
      deviceCode: string;
      deviceName: string;
      productName: string;
      organizationName: string;
      temperature: number;
      temperatureHigh: number;
      temperatureLow: number;
      temperatureState: string;
      temperatureStateName: string;
      onlineState: string;
      lastSeenAt: string;
    }[];
  };
  "device.tagDisplay.get": {
    kind: "call";
    param: Record<string, never>;
    data: {
      tenantCode: string;
      fields: string[];
      showAlarmBadge: boolean;
      options: {
        value: string;
        label: string;
      }[];
      updatedBy: string;
      updateTime: string;
    };
  };
  "device.tagDisplay.update": {
    kind: "call";
    param: {
      /**
       * @minItems 1
       * @maxItems 12
       */
      fields: (
        | "productName"
        | "model"
        | "firmwareVersion"
        | "onlineState"
        | "healthState"
        | "batteryLevel"
        | "signalStrength"
        | "temperature"
        | "address"
        | "iccid"
        | "lastSeenAt"
        | "gatewayCode"
      )[];
      showAlarmBadge?: boolean;
    };
    data: {
      fields: string[];
      showAlarmBadge: boolean;
    };
  };
  "device.alarmBoard.typeStatistics": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
      source?: "device" | "monitoring";
    };
    data: {
      alarmType: "battery" | "fault" | "offline" | "threshold";
      name: string;
      count: number;
      open: number;
    }[];
  };
  "device.orderCard.get": {
    kind: "call";
    param: {
      orderCode: string;
    };
    data: {
      iccid: string;
      msisdn: string;
      operator: string;
      operatorName: string;
      packageName: string;
      flowMb: number;
      state: string;
      goodsCode: string;
      goodsName: string;
      deviceCode: string;
      assignTime: string | null;
      testUntil: string | null;
    }[];
  };
  "deviceAccess.command.generate": {
    kind: "call";
    param: {
      code: string;
      commandType: "reboot" | "time_sync" | "report_interval" | "valve_open" | "valve_close" | "silence";
      intervalMinutes?: number;
    };
    data: {
      id: number;
      code: string;
      commandType: "reboot" | "time_sync" | "report_interval" | "valve_open" | "valve_close" | "silence" | "ota";
      parameters: {};
      commandText: string;
      commandHex: string;
      state: "pending";
      createTime: string;
      expiresAt: string;
    };
  };
  "deviceAccess.command.detail": {
    kind: "call";
    param: {
      id: number;
    };
    data: {
      id: number;
      code: string;
      commandType: "reboot" | "time_sync" | "report_interval" | "valve_open" | "valve_close" | "silence" | "ota";
      state: "pending" | "sent" | "acknowledged" | "failed" | "expired";
      createTime: string;
      sentTime: string | null;
      replyTime: string | null;
      result: "ok" | "failed" | null;
      message: string | null;
    };
  };
  "gateway.page": {
    kind: "page";
    param: {
      keyword?: string;
      productCode?: string;
      organizationCode?: string;
      onlineState?: "online" | "offline" | "inactive";
    };
    data: {
      records: {
        subDeviceCount: number;
        onlineSubDeviceCount: number;
        id: number;
        code: string;
        name: string;
        productCode: string;
        productName: string;
        productModel: string;
        nodeType: string;
        protocol: string;
        organizationCode: string;
        organizationName: string;
        tenantCode: string;
        imei: string;
        firmwareVersion: string;
        onlineState: string;
        healthState: string;
        healthScore: number;
        batteryLevel: number | null;
        batteryRatio: number | null;
        signalStrength: number | null;
        temperature: number | null;
        longitude: number | null;
        latitude: number | null;
        address: string;
        gatewayCode: string;
        iccid: string;
        sleeping: boolean;
        sleepSince: string | null;
        lastSeenTime: string | null;
        activatedTime: string | null;
        deletedTime: string | null;
        deletedBy: string;
        recycleReason: string;
        remark: string;
        createTime: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "gateway.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      subDeviceCount: number;
      onlineSubDeviceCount: number;
      id: number;
      code: string;
      name: string;
      productCode: string;
      productName: string;
      productModel: string;
      nodeType: string;
      protocol: string;
      organizationCode: string;
      organizationName: string;
      tenantCode: string;
      imei: string;
      firmwareVersion: string;
      onlineState: string;
      healthState: string;
      healthScore: number;
      batteryLevel: number | null;
      batteryRatio: number | null;
      signalStrength: number | null;
      temperature: number | null;
      longitude: number | null;
      latitude: number | null;
      address: string;
      gatewayCode: string;
      iccid: string;
      sleeping: boolean;
      sleepSince: string | null;
      lastSeenTime: string | null;
      activatedTime: string | null;
      deletedTime: string | null;
      deletedBy: string;
      recycleReason: string;
      remark: string;
      createTime: string;
    };
  };
  "gateway.insert": {
    kind: "call";
    param: {
      gateway: {
        code: string;
        name: string;
        productCode: string;
        organizationCode: string;
        imei?: string;
        longitude?: number | null;
        latitude?: number | null;
        address?: string;
        remark?: string;
      };
    };
    data: {
      code: string;
    };
  };
  "gateway.modify": {
    kind: "call";
    param: {
      code: string;
      gateway: {
        code: string;
        name: string;
        productCode: string;
        organizationCode: string;
        imei?: string;
        longitude?: number | null;
        latitude?: number | null;
        address?: string;
        remark?: string;
      };
    };
    data: {
      code: string;
    };
  };
  "gateway.delete": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      code: string;
    };
  };
  "gateway.subDevice.page": {
    kind: "page";
    param: {
      keyword?: string;
      productCode?: string;
      organizationCode?: string;
      onlineState?: "online" | "offline" | "inactive";
      gatewayCode: string;
    };
    data: {
      records: {
        id: number;
        code: string;
        name: string;
        productCode: string;
        productName: string;
        productModel: string;
        nodeType: string;
        protocol: string;
        organizationCode: string;
        organizationName: string;
        tenantCode: string;
        imei: string;
        firmwareVersion: string;
        onlineState: string;
        healthState: string;
        healthScore: number;
        batteryLevel: number | null;
        batteryRatio: number | null;
        signalStrength: number | null;
        temperature: number | null;
        longitude: number | null;
        latitude: number | null;
        address: string;
        gatewayCode: string;
        iccid: string;
        sleeping: boolean;
        sleepSince: string | null;
        lastSeenTime: string | null;
        activatedTime: string | null;
        deletedTime: string | null;
        deletedBy: string;
        recycleReason: string;
        remark: string;
        createTime: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "camera.page": {
    kind: "page";
    param: {
      keyword?: string;
      brand?: "hikvision" | "dahua" | "uniview" | "ezviz" | "huawei" | "other";
      onlineState?: "online" | "offline";
      organizationCode?: string;
    };
    data: {
      records: {
        id: number;
        code: string;
        name: string;
        organizationCode: string;
        organizationName: string;
        brand: string;
        model: string;
        channel: number;
        streamUrl: string;
        streamProtocol: "hls" | "rtmp" | "rtsp";
        onlineState: string;
        longitude: number | null;
        latitude: number | null;
        deviceCode: string;
        deviceName: string;
        remark: string;
        createdBy: string;
        createTime: string;
        updateTime: string | null;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "camera.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      id: number;
      code: string;
      name: string;
      organizationCode: string;
      organizationName: string;
      brand: string;
      model: string;
      channel: number;
      streamUrl: string;
      streamProtocol: "hls" | "rtmp" | "rtsp";
      onlineState: string;
      longitude: number | null;
      latitude: number | null;
      deviceCode: string;
      deviceName: string;
      remark: string;
      createdBy: string;
      createTime: string;
      updateTime: string | null;
    };
  };
  "camera.insert": {
    kind: "call";
    param: {
      camera: {
        code?: string;
        name: string;
        organizationCode: string;
        brand: "hikvision" | "dahua" | "uniview" | "ezviz" | "huawei" | "other";
        model?: string;
        channel: number;
        streamUrl: string;
        longitude?: number | null;
        latitude?: number | null;
        deviceCode?: string | null;
        remark?: string;
      };
    };
    data: {
      code: string;
    };
  };
  "camera.modify": {
    kind: "call";
    param: {
      code: string;
      camera: {
        code?: string;
        name: string;
        organizationCode: string;
        brand: "hikvision" | "dahua" | "uniview" | "ezviz" | "huawei" | "other";
        model?: string;
        channel: number;
        streamUrl: string;
        longitude?: number | null;
        latitude?: number | null;
        deviceCode?: string | null;
        remark?: string;
      };
    };
    data: {
      code: string;
    };
  };
  "camera.delete": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      code: string;
    };
  };
  "camera.stream.get": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      code: string;
      name: string;
      streamUrl: string;
      streamProtocol: "hls" | "rtmp" | "rtsp";
      playUrl: string;
      playToken: string;
      expiresIn: number;
      expireTime: string;
    };
  };
  "product.page": {
    kind: "page";
    param: {
      keyword?: string;
      categoryCode?: string;
      nodeType?: "direct" | "gateway" | "sub";
      protocol?: "mqtt" | "coap" | "http" | "modbus";
      ownerType?: "platform" | "tenant";
      published?: boolean;
    };
    data: {
      records: {
        id: number;
        code: string;
        name: string;
        model: string;
        categoryCode: string;
        categoryName: string;
        tenantCode: string;
        tenantName: string;
        ownerType: "platform" | "tenant";
        ownerName: string;
        protocol: string;
        nodeType: string;
        batteryPowered: boolean;
        manufacturer: string;
        description: string;
        published: boolean;
        deviceCount: number;
        onlineCount: number;
        settings: {
          reportIntervalMinutes: number;
          heartbeatMinutes: number;
          lowBatteryPercent: number;
          temperatureHigh: number;
          temperatureLow: number;
        };
        settingsSource: string;
        editable: boolean;
        createTime: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "product.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      id: number;
      code: string;
      name: string;
      model: string;
      categoryCode: string;
      categoryName: string;
      tenantCode: string;
      tenantName: string;
      ownerType: "platform" | "tenant";
      ownerName: string;
      protocol: string;
      nodeType: string;
      batteryPowered: boolean;
      manufacturer: string;
      description: string;
      published: boolean;
      deviceCount: number;
      onlineCount: number;
      settings: {
        reportIntervalMinutes: number;
        heartbeatMinutes: number;
        lowBatteryPercent: number;
        temperatureHigh: number;
        temperatureLow: number;
      };
      settingsSource: string;
      editable: boolean;
      createTime: string;
    };
  };
  "product.insert": {
    kind: "call";
    param: {
      product: {
        code: string;
        name: string;
        model: string;
        categoryCode: string;
        protocol: "mqtt" | "coap" | "http" | "modbus";
        nodeType: "direct" | "gateway" | "sub";
        batteryPowered?: boolean;
        manufacturer?: string;
        description?: string;
        published?: boolean;
      };
    };
    data: {
      code: string;
    };
  };
  "product.modify": {
    kind: "call";
    param: {
      code: string;
      product: {
        code: string;
        name: string;
        model: string;
        categoryCode: string;
        protocol: "mqtt" | "coap" | "http" | "modbus";
        nodeType: "direct" | "gateway" | "sub";
        batteryPowered?: boolean;
        manufacturer?: string;
        description?: string;
        published?: boolean;
      };
    };
    data: null;
  };
  "product.delete": {
    kind: "call";
    param: {
      code: string;
    };
    data: null;
  };
  "product.list": {
    kind: "call";
    param: {
      categoryCode?: string;
      nodeType?: "direct" | "gateway" | "sub";
      keyword?: string;
    };
    data: {
      code: string;
      name: string;
      model: string;
      categoryCode: string;
      nodeType: string;
      protocol: string;
    }[];
  };
  "product.deviceSetting.get": {
    kind: "call";
    param: {
      productCode: string;
    };
    data: {
      settingsSource: string;
      updatedBy: string;
      updateTime: string;
      reportIntervalMinutes: number;
      heartbeatMinutes: number;
      lowBatteryPercent: number;
      temperatureHigh: number;
      temperatureLow: number;
      productCode: string;
      productName: string;
      batteryPowered: boolean;
      deviceCount: number;
    };
  };
  "product.deviceSetting.save": {
    kind: "call";
    param: {
      productCode: string;
      settings: {
        reportIntervalMinutes: number;
        heartbeatMinutes: number;
        lowBatteryPercent: number;
        temperatureHigh: number;
        temperatureLow: number;
      };
    };
    data: {
      settingsSource: string;
    };
  };
  "category.page": {
    kind: "page";
    param: {
      keyword?: string;
      parentCode?: string;
      ownerType?: "platform" | "tenant";
    };
    data: {
      records: {
        id: number;
        categoryCode: string;
        categoryName: string;
        parentCode: string;
        parentName: string;
        tenantCode: string;
        tenantName: string;
        ownerType: "platform" | "tenant";
        ownerName: string;
        sort: number;
        remark: string;
        productCount: number;
        childCount: number;
        editable: boolean;
        createTime: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "category.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      id: number;
      categoryCode: string;
      categoryName: string;
      parentCode: string;
      parentName: string;
      tenantCode: string;
      tenantName: string;
      ownerType: "platform" | "tenant";
      ownerName: string;
      sort: number;
      remark: string;
      productCount: number;
      childCount: number;
      editable: boolean;
      createTime: string;
    };
  };
  "category.insert": {
    kind: "call";
    param: {
      category: {
        categoryCode: string;
        categoryName: string;
        parentCode?: string | null;
        sort?: number | null;
        remark?: string;
      };
    };
    data: {
      categoryCode: string;
    };
  };
  "category.modify": {
    kind: "call";
    param: {
      code: string;
      category: {
        categoryCode: string;
        categoryName: string;
        parentCode?: string | null;
        sort?: number | null;
        remark?: string;
      };
    };
    data: null;
  };
  "category.delete": {
    kind: "call";
    param: {
      code: string;
    };
    data: null;
  };
  "category.list": {
    kind: "call";
    param: Record<string, never>;
    data: Node[];
  };
  "alarm.config.page": {
    kind: "page";
    param: {
      keyword?: string;
      alarmType?: "threshold" | "offline" | "fault" | "battery";
      level?: ("1" | "2" | "3" | "4") | number;
      productCode?: string;
      enabled?: "1" | "0";
    };
    data: {
      records: {
        id: number;
        code: string;
        name: string;
        productCode: string;
        productName: string;
        tenantCode: string;
        tenantName: string;
        alarmType: string;
        level: string;
        metric: string;
        operator: string;
        threshold: number;
        durationMinutes: number;
        condition: string;
        notifyChannels: string[];
        notifyChannelNames: string;
        recoverAutomatically: boolean;
        enabled: boolean;
        alarmCount: number;
        remark: string;
        createdBy: string;
        createTime: string;
        updateTime: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "alarm.config.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      id: number;
      code: string;
      name: string;
      productCode: string;
      productName: string;
      tenantCode: string;
      tenantName: string;
      alarmType: string;
      level: string;
      metric: string;
      operator: string;
      threshold: number;
      durationMinutes: number;
      condition: string;
      notifyChannels: string[];
      notifyChannelNames: string;
      recoverAutomatically: boolean;
      enabled: boolean;
      alarmCount: number;
      remark: string;
      createdBy: string;
      createTime: string;
      updateTime: string;
    };
  };
  "alarm.config.insert": {
    kind: "call";
    param: {
      rule: {
        name: string;
        productCode?: string | null;
        alarmType: "threshold" | "offline" | "fault" | "battery";
        level: ("1" | "2" | "3" | "4") | number;
        metric:
          | "temperature"
          | "humidity"
          | "battery"
          | "pressure"
          | "level"
          | "flow"
          | "ph"
          | "turbidity"
          | "smoke"
          | "signal"
          | "offline_minutes"
          | "fault_code";
        operator: "gt" | "ge" | "lt" | "le" | "eq";
        threshold: number;
        durationMinutes?: number;
        /**
         * @maxItems 6
         */
        notifyChannels?: ("dingtalk" | "feishu" | "mail" | "sms" | "voice" | "wechat")[];
        recoverAutomatically?: boolean;
        enabled?: boolean;
        remark?: string;
      };
    };
    data: {
      code: string;
    };
  };
  "alarm.config.modify": {
    kind: "call";
    param: {
      code: string;
      rule: {
        name: string;
        productCode?: string | null;
        alarmType: "threshold" | "offline" | "fault" | "battery";
        level: ("1" | "2" | "3" | "4") | number;
        metric:
          | "temperature"
          | "humidity"
          | "battery"
          | "pressure"
          | "level"
          | "flow"
          | "ph"
          | "turbidity"
          | "smoke"
          | "signal"
          | "offline_minutes"
          | "fault_code";
        operator: "gt" | "ge" | "lt" | "le" | "eq";
        threshold: number;
        durationMinutes?: number;
        /**
         * @maxItems 6
         */
        notifyChannels?: ("dingtalk" | "feishu" | "mail" | "sms" | "voice" | "wechat")[];
        recoverAutomatically?: boolean;
        enabled?: boolean;
        remark?: string;
      };
    };
    data: null;
  };
  "alarm.config.delete": {
    kind: "call";
    param: {
      code: string;
    };
    data: null;
  };
  "alarm.config.enable": {
    kind: "call";
    param: {
      code: string;
      enabled: boolean;
    };
    data: {
      code: string;
      enabled: boolean;
    };
  };
  "alarm.record.page": {
    kind: "page";
    param: {
      keyword?: string;
      deviceCode?: string;
      alarmType?: "threshold" | "offline" | "fault" | "battery";
      level?: ("1" | "2" | "3" | "4") | number;
      state?: "pending" | "processing" | "resolved" | "recovered" | "ignored";
      organizationCode?: string;
      productCode?: string;
      ruleCode?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
    };
    data: {
      records: {
        id: number;
        code: string;
        ruleCode: string;
        ruleName: string;
        deviceCode: string;
        deviceName: string;
        productCode: string;
        productName: string;
        organizationCode: string;
        organizationName: string;
        alarmType: "threshold" | "offline" | "fault" | "battery";
        level: "1" | "2" | "3" | "4";
        state: "pending" | "processing" | "resolved" | "recovered" | "ignored";
        open: boolean;
        title: string;
        content: string;
        metricValue: number | null;
        triggeredAt: string;
        recoveredAt: (
          | {
              [k: string]: unknown | undefined;
            }
          | ""
        ) &
          string;
        durationSeconds: number;
        handledBy: string;
        handledByName: string;
        handledAt: (
          | {
              [k: string]: unknown | undefined;
            }
          | ""
        ) &
          string;
        handleRemark: string;
        repairOrderCode: string;
        source: "device" | "monitoring";
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "alarm.record.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      condition: string;
      deviceOnlineState: string;
      deviceHealthState: string;
      deviceBatteryLevel: number | null;
      deviceSignalStrength: number | null;
      deviceTemperature: number | null;
      deviceAddress: string;
      deviceLastSeenAt: string;
      deviceAlarmCount: number;
      id: number;
      code: string;
      ruleCode: string;
      ruleName: string;
      deviceCode: string;
      deviceName: string;
      productCode: string;
      productName: string;
      organizationCode: string;
      organizationName: string;
      alarmType: string;
      level: string;
      state: "ignored" | "pending" | "processing" | "recovered" | "resolved";
      open: boolean;
      title: string;
      content: string;
      metricValue: number | null;
      triggeredAt: string;
      recoveredAt: string;
      durationSeconds: number;
      handledBy: string;
      handledByName: string;
      handledAt: string;
      handleRemark: string;
      repairOrderCode: string;
      source: "device" | "monitoring";
    };
  };
  "alarm.record.export": {
    kind: "blob";
    param: {
      keyword?: string;
      deviceCode?: string;
      alarmType?: "threshold" | "offline" | "fault" | "battery";
      level?: ("1" | "2" | "3" | "4") | number;
      state?: "pending" | "processing" | "resolved" | "recovered" | "ignored";
      organizationCode?: string;
      productCode?: string;
      ruleCode?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
    };
    data: unknown;
  };
  "alarm.record.handle": {
    kind: "call";
    param: {
      code: string;
      state: "resolved" | "ignored";
      remark: string;
    };
    data: {
      code: string;
      state: "resolved" | "ignored";
    };
  };
  "alarm.record.batchHandle": {
    kind: "call";
    param: {
      /**
       * @minItems 1
       * @maxItems 200
       */
      codes: string[];
      state: "resolved" | "ignored";
      remark: string;
    };
    data: {
      handled: number;
      skipped: number;
    };
  };
  "alarm.record.toRepair": {
    kind: "call";
    param: {
      code: string;
      remark?: string;
    };
    data: {
      code: string;
      repairOrderCode: string;
      state: string;
    };
  };
  "alarm.statistics": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
      source?: "device" | "monitoring";
    };
    data: {
      startTime: string;
      endTime: string;
      total: number;
      level1: number;
      level2: number;
      level3: number;
      level4: number;
      pending: number;
      processing: number;
      resolved: number;
      recovered: number;
      ignored: number;
      open: number;
      closedRate: number;
      byLevel: {
        level: string;
        name: string;
        count: number;
      }[];
      byState: {
        state: "ignored" | "pending" | "processing" | "recovered" | "resolved";
        name: string;
        count: number;
      }[];
    };
  };
  "monitoring.alarm.page": {
    kind: "page";
    param: {
      keyword?: string;
      deviceCode?: string;
      alarmType?: "threshold" | "offline" | "fault" | "battery";
      level?: ("1" | "2" | "3" | "4") | number;
      state?: "pending" | "processing" | "resolved" | "recovered" | "ignored";
      organizationCode?: string;
      productCode?: string;
      ruleCode?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
    };
    data: {
      records: {
        id: number;
        code: string;
        ruleCode: string;
        ruleName: string;
        deviceCode: string;
        deviceName: string;
        productCode: string;
        productName: string;
        organizationCode: string;
        organizationName: string;
        alarmType: string;
        level: string;
        state: "ignored" | "pending" | "processing" | "recovered" | "resolved";
        open: boolean;
        title: string;
        content: string;
        metricValue: number | null;
        triggeredAt: string;
        recoveredAt: string;
        durationSeconds: number;
        handledBy: string;
        handledByName: string;
        handledAt: string;
        handleRemark: string;
        repairOrderCode: string;
        source: "device" | "monitoring";
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "monitoring.alarm.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      condition: string;
      deviceOnlineState: string;
      deviceHealthState: string;
      deviceBatteryLevel: number | null;
      deviceSignalStrength: number | null;
      deviceTemperature: number | null;
      deviceAddress: string;
      deviceLastSeenAt: string;
      deviceAlarmCount: number;
      id: number;
      code: string;
      ruleCode: string;
      ruleName: string;
      deviceCode: string;
      deviceName: string;
      productCode: string;
      productName: string;
      organizationCode: string;
      organizationName: string;
      alarmType: string;
      level: string;
      state: "ignored" | "pending" | "processing" | "recovered" | "resolved";
      open: boolean;
      title: string;
      content: string;
      metricValue: number | null;
      triggeredAt: string;
      recoveredAt: string;
      durationSeconds: number;
      handledBy: string;
      handledByName: string;
      handledAt: string;
      handleRemark: string;
      repairOrderCode: string;
      source: "device" | "monitoring";
    };
  };
  "monitoring.alarm.export": {
    kind: "blob";
    param: {
      keyword?: string;
      deviceCode?: string;
      alarmType?: "threshold" | "offline" | "fault" | "battery";
      level?: ("1" | "2" | "3" | "4") | number;
      state?: "pending" | "processing" | "resolved" | "recovered" | "ignored";
      organizationCode?: string;
      productCode?: string;
      ruleCode?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
    };
    data: unknown;
  };
  "monitoring.alarm.handle": {
    kind: "call";
    param: {
      code: string;
      state: "resolved" | "ignored";
      remark: string;
    };
    data: {
      code: string;
      state: "ignored" | "resolved";
    };
  };
  "upgrade.package.page": {
    kind: "page";
    param: {
      keyword?: string;
      productCode?: string;
      packageType?: "full" | "diff";
      owner?: "platform" | "tenant";
    };
    data: {
      records: {
        id: number;
        code: string;
        name: string;
        productCode: string;
        productName: string;
        version: string;
        packageType: string;
        baseVersion: string;
        fileUrl: string;
        filePath: string | null;
        fileName: string;
        fileSize: number;
        fileSizeText: string;
        checksumAlgorithm: string;
        checksum: string;
        description: string;
        owner: string;
        ownerName: string;
        editable: boolean;
        taskCount: number;
        activeTaskCount: number;
        createdBy: string;
        createTime: string;
        updateTime: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "upgrade.package.detail": {
    kind: "call";
    param: {
      id: number;
    };
    data: {
      tasks: {
        id: number;
        code: string;
        name: string;
        state: string;
        deviceCount: number;
        createTime: string;
      }[];
      id: number;
      code: string;
      name: string;
      productCode: string;
      productName: string;
      version: string;
      packageType: string;
      baseVersion: string;
      fileUrl: string;
      filePath: string | null;
      fileName: string;
      fileSize: number;
      fileSizeText: string;
      checksumAlgorithm: string;
      checksum: string;
      description: string;
      owner: string;
      ownerName: string;
      editable: boolean;
      taskCount: number;
      activeTaskCount: number;
      createdBy: string;
      createTime: string;
      updateTime: string;
    };
  };
  "upgrade.package.insert": {
    kind: "call";
    param: {
      package: {
        name: string;
        productCode: string;
        version: string;
        packageType: "full" | "diff";
        baseVersion?: string | null;
        filePath?: string | null;
        fileUrl?: string | null;
        fileSize?: number | null;
        checksumAlgorithm?: ("MD5" | "SHA256") | null;
        checksum?: string | null;
        description?: string | null;
      };
    };
    data: {
      id: number;
      code: string;
    };
  };
  "upgrade.package.modify": {
    kind: "call";
    param: {
      id: number;
      package: {
        name: string;
        productCode: string;
        version: string;
        packageType: "full" | "diff";
        baseVersion?: string | null;
        filePath?: string | null;
        fileUrl?: string | null;
        fileSize?: number | null;
        checksumAlgorithm?: ("MD5" | "SHA256") | null;
        checksum?: string | null;
        description?: string | null;
      };
    };
    data: null;
  };
  "upgrade.package.delete": {
    kind: "call";
    param: {
      id: number;
    };
    data: null;
  };
  "upgrade.package.list": {
    kind: "call";
    param: {
      productCode?: string;
    };
    data: {
      id: number;
      code: string;
      name: string;
      label: string;
      productCode: string;
      version: string;
      packageType: string;
      baseVersion: string;
    }[];
  };
  "upgrade.package.upload": {
    kind: "upload";
    param: Record<string, never>;
    data: {
      url: string;
      fileName: string;
      fileSize: number;
      checksumAlgorithm: "SHA256";
      checksum: string;
    };
  };
  "upgrade.task.page": {
    kind: "page";
    param: {
      keyword?: string;
      state?: "pending" | "upgrading" | "succeeded" | "failed" | "cancelled";
      productCode?: string;
      organizationCode?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
    };
    data: {
      records: {
        id: number;
        code: string;
        name: string;
        packageId: number | null;
        packageName: string;
        packageVersion: string;
        productCode: string;
        productName: string;
        organizationCode: string;
        organizationName: string;
        state: "cancelled" | "failed" | "pending" | "succeeded" | "upgrading";
        description: string;
        scheduledAt: string;
        startedAt: string;
        finishedAt: string;
        cancelledAt: string;
        cancelledBy: string;
        timeLimitMinutes: number;
        createdBy: string;
        createTime: string;
        deviceCount: number;
        pendingCount: number;
        upgradingCount: number;
        succeededCount: number;
        failedCount: number;
        cancelledCount: number;
        completion: number;
        successRate: number;
        cancellable: boolean;
        retryable: boolean;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "upgrade.task.detail": {
    kind: "call";
    param: {
      id: number;
    };
    data: {
      id: number;
      code: string;
      name: string;
      packageId: number | null;
      packageName: string;
      packageVersion: string;
      productCode: string;
      productName: string;
      organizationCode: string;
      organizationName: string;
      state: "cancelled" | "failed" | "pending" | "succeeded" | "upgrading";
      description: string;
      scheduledAt: string;
      startedAt: string;
      finishedAt: string;
      cancelledAt: string;
      cancelledBy: string;
      timeLimitMinutes: number;
      createdBy: string;
      createTime: string;
      deviceCount: number;
      pendingCount: number;
      upgradingCount: number;
      succeededCount: number;
      failedCount: number;
      cancelledCount: number;
      completion: number;
      successRate: number;
      cancellable: boolean;
      retryable: boolean;
    };
  };
  "upgrade.task.insert": {
    kind: "call";
    param: {
      task: {
        name: string;
        packageId: number;
        organizationCode: string;
        includeAllDevices?: boolean | null;
        deviceCodes?: string[] | null;
        scheduledAt?: string | null;
        timeLimitMinutes?: number | null;
        description?: string | null;
      };
    };
    data: {
      id: number;
      code: string;
      deviceCount: number;
    };
  };
  "upgrade.task.cancel": {
    kind: "call";
    param: {
      id: number;
    };
    data: {
      cancelled: number;
    };
  };
  "upgrade.task.retry": {
    kind: "call";
    param: {
      id: number;
      /**
       * @minItems 1
       * @maxItems 10000
       */
      deviceCodes?: string[];
    };
    data: {
      retried: number;
    };
  };
  "upgrade.task.device.page": {
    kind: "page";
    param: {
      taskId: number;
      state?: "pending" | "upgrading" | "succeeded" | "failed" | "cancelled";
      keyword?: string;
    };
    data: {
      records: {
        deviceCode: string;
        deviceName: string;
        organizationName: string;
        onlineState: string;
        fromVersion: string;
        targetVersion: string;
        currentVersion: string;
        state: "cancelled" | "failed" | "pending" | "succeeded" | "upgrading";
        progress: number;
        progressRate: number;
        phase: "" | "downloading" | "installing";
        phaseText: string;
        commandId: number | null;
        deadlineAt: string;
        attempts: number;
        retryable: boolean;
        queuedAt: string;
        startedAt: string;
        finishedAt: string;
        errorMessage: string;
        updateTime: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "onlineConfiguration.page": {
    kind: "page";
    param: {
      keyword?: string;
      published?: "0" | "1";
      organizationCode?: string;
    };
    data: {
      records: {
        id: number;
        code: string;
        name: string;
        organizationCode: string;
        organizationName: string;
        description: string;
        canvas: {
          width: number;
          height: number;
          background: string;
          widgets: {
            id: string;
            type: string;
            title: string;
            deviceCode: string | null;
            metric: string | null;
            unit: string;
            x: number;
            y: number;
            width: number;
            height: number;
          }[];
        };
        widgetCount: number;
        deviceCount: number;
        published: boolean;
        publishState: string;
        createdBy: string;
        createTime: string;
        updatedBy: string;
        updateTime: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "onlineConfiguration.detail": {
    kind: "call";
    param: {
      id: number;
    };
    data: {
      id: number;
      code: string;
      name: string;
      organizationCode: string;
      organizationName: string;
      description: string;
      canvas: {
        width: number;
        height: number;
        background: string;
        widgets: {
          id: string;
          type: string;
          title: string;
          deviceCode: string | null;
          metric: string | null;
          unit: string;
          x: number;
          y: number;
          width: number;
          height: number;
        }[];
      };
      widgetCount: number;
      deviceCount: number;
      published: boolean;
      publishState: string;
      createdBy: string;
      createTime: string;
      updatedBy: string;
      updateTime: string;
    };
  };
  "onlineConfiguration.insert": {
    kind: "call";
    param: {
      configuration: {
        name: string;
        organizationCode: string;
        description?: string | null;
        published?: boolean | null;
        canvas: {
          width: number;
          height: number;
          background?: string | null;
          widgets?:
            | {
                id?: string | null;
                type: "text" | "value" | "gauge" | "trend" | "tank" | "indicator" | "switch" | "pipe";
                title?: string | null;
                deviceCode?: string | null;
                metric?: string | null;
                unit?: string | null;
                x?: number | null;
                y?: number | null;
                width?: number | null;
                height?: number | null;
              }[]
            | null;
        };
      };
    };
    data: {
      id: number;
      code: string;
    };
  };
  "onlineConfiguration.modify": {
    kind: "call";
    param: {
      id: number;
      configuration: {
        name: string;
        organizationCode: string;
        description?: string | null;
        published?: boolean | null;
        canvas: {
          width: number;
          height: number;
          background?: string | null;
          widgets?:
            | {
                id?: string | null;
                type: "text" | "value" | "gauge" | "trend" | "tank" | "indicator" | "switch" | "pipe";
                title?: string | null;
                deviceCode?: string | null;
                metric?: string | null;
                unit?: string | null;
                x?: number | null;
                y?: number | null;
                width?: number | null;
                height?: number | null;
              }[]
            | null;
        };
      };
    };
    data: null;
  };
  "onlineConfiguration.delete": {
    kind: "call";
    param: {
      id: number;
    };
    data: null;
  };
  "dashboard.overview": {
    kind: "call";
    param: Record<string, never>;
    data: {
      deviceTotal: number;
      onlineCount: number;
      offlineCount: number;
      inactiveCount: number;
      onlineRate: number;
      faultyCount: number;
      lowBatteryCount: number;
      sleepingCount: number;
      productCount: number;
      projectCount: number;
      alarmToday: number;
      alarmPending: number;
    };
  };
  "dashboard.deviceTrend": {
    kind: "call";
    param: {
      days?: number;
      startTime?: string;
      endTime?: string;
    };
    data: {
      day: string;
      newDevices: number;
      totalDevices: number;
    }[];
  };
  "dashboard.alarmTrend": {
    kind: "call";
    param: {
      days?: number;
      startTime?: string;
      endTime?: string;
    };
    data: {
      day: string;
      total: number;
      level1: number;
      level2: number;
      level3: number;
      level4: number;
    }[];
  };
  "home.tenant.summary": {
    kind: "call";
    param: Record<string, never>;
    data: {
      asOf: string;
      devices: {
        total: number;
        online: number;
        offline: number;
        inactive: number;
        onlineRate: number;
        onlinePercent: number;
        readingsPerMinute: number;
        readings: number;
        windowSeconds: number;
      } | null;
      alarms: {
        pending: {
          total: number;
          levels: {
            level: number;
            name: string;
            count: number;
          }[];
        };
        today: {
          total: number;
          levels: {
            level: number;
            name: string;
            count: number;
          }[];
        };
        /**
         * @minItems 2
         * @maxItems 2
         */
        todayRange: string[];
      } | null;
      repair: {
        overdue: {
          count: number;
          estimated: boolean;
        };
        created: {
          count: number;
          estimated: boolean;
        };
      } | null;
      patrol: {
        overdue: {
          count: number;
          estimated: boolean;
        };
      } | null;
      cards: {
        expiring30: {
          count: number;
          estimated: boolean;
        };
      } | null;
    };
  };
  "home.field.summary": {
    kind: "call";
    param: Record<string, never>;
    data: {
      asOf: string;
      repair: {
        assigned: {
          count: number;
          estimated: boolean;
        };
        accepted: {
          count: number;
          estimated: boolean;
        };
        inProgress: {
          count: number;
          estimated: boolean;
        };
        overdue: {
          count: number;
          estimated: boolean;
        };
      } | null;
      patrol: {
        pending: {
          count: number;
          estimated: boolean;
        };
        inProgress: {
          count: number;
          estimated: boolean;
        };
        overdue: {
          count: number;
          estimated: boolean;
        };
      } | null;
    };
  };
  "home.platform.summary": {
    kind: "call";
    param: Record<string, never>;
    data: {
      asOf: string;
      tenants: {
        total: number;
        largest: {
          code: string;
          name: string;
          devices: number;
          online: number;
          offline: number;
          inactive: number;
          onlinePercent: number;
        }[];
      } | null;
      devices: {
        total: number;
        online: number;
        offline: number;
        inactive: number;
        onlineRate: number;
        onlinePercent: number;
        readingsPerMinute: number;
        readings: number;
        windowSeconds: number;
      } | null;
      messages: {
        perSecond: number;
        readings: number;
        windowSeconds: number;
      } | null;
      deliveries: {
        failed: {
          count: number;
          estimated: boolean;
        };
        pending: {
          count: number;
          estimated: boolean;
        };
      } | null;
    };
  };
  "invoice.apply": {
    kind: "call";
    param: {
      orderCode: string;
      titleId: number;
      invoiceType: "normal" | "special";
      email?: string;
      remark?: string;
    };
    data: {
      id: number;
      code: string;
      tenantCode: string;
      tenantName: string;
      orderCode: string;
      orderState: string;
      goodsSummary: string;
      titleId: number | null;
      invoiceType: string;
      titleName: string;
      taxNo: string;
      bankName: string;
      bankAccount: string;
      titleAddress: string;
      titlePhone: string;
      amount: number;
      content: string;
      email: string;
      remark: string;
      state: string;
      stateName: string;
      invoiceNo: string;
      issueTime: string | null;
      rejectReason: string;
      appliedBy: string;
      applyTime: string | null;
    };
  };
  "invoice.manageInfo": {
    kind: "call";
    param: Record<string, never>;
    data: {
      invoicedAmount: number;
      invoicedCount: number;
      applyingAmount: number;
      applyingCount: number;
      rejectedCount: number;
      invoiceableAmount: number;
      invoiceableCount: number;
      records: {
        code: string;
        payAmount: number;
        payTime: string | null;
        state: string;
        goodsSummary: string;
        label: string;
      }[];
    };
  };
  "invoice.page": {
    kind: "page";
    param: {
      keyword?: string;
      state?: "applied" | "issued" | "rejected" | "";
      invoiceType?: "normal" | "special" | "";
    };
    data: {
      records: {
        id: number;
        code: string;
        tenantCode: string;
        tenantName: string;
        orderCode: string;
        orderState: string;
        goodsSummary: string;
        titleId: number | null;
        invoiceType: string;
        titleName: string;
        taxNo: string;
        bankName: string;
        bankAccount: string;
        titleAddress: string;
        titlePhone: string;
        amount: number;
        content: string;
        email: string;
        remark: string;
        state: string;
        stateName: string;
        invoiceNo: string;
        issueTime: string | null;
        rejectReason: string;
        appliedBy: string;
        applyTime: string | null;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "invoice.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      id: number;
      code: string;
      tenantCode: string;
      tenantName: string;
      orderCode: string;
      orderState: string;
      goodsSummary: string;
      titleId: number | null;
      invoiceType: string;
      titleName: string;
      taxNo: string;
      bankName: string;
      bankAccount: string;
      titleAddress: string;
      titlePhone: string;
      amount: number;
      content: string;
      email: string;
      remark: string;
      state: string;
      stateName: string;
      invoiceNo: string;
      issueTime: string | null;
      rejectReason: string;
      appliedBy: string;
      applyTime: string | null;
    };
  };
  "invoice.title.page": {
    kind: "page";
    param: {
      keyword?: string | null;
    };
    data: {
      records: {
        id: number;
        name: string;
        taxNo: string;
        bankName: string;
        bankAccount: string;
        address: string;
        phone: string;
        createdBy: string;
        createTime: string;
        updateTime: string;
        invoiceCount: number;
        complete: boolean;
        label: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "invoice.title.detail": {
    kind: "call";
    param: {
      id: number;
    };
    data: {
      id: number;
      name: string;
      taxNo: string;
      bankName: string;
      bankAccount: string;
      address: string;
      phone: string;
      createdBy: string;
      createTime: string;
      updateTime: string;
      invoiceCount: number;
      complete: boolean;
      label: string;
    };
  };
  "invoice.title.list": {
    kind: "call";
    param: Record<string, never>;
    data: {
      id: number;
      name: string;
      taxNo: string;
      bankName: string;
      bankAccount: string;
      address: string;
      phone: string;
      complete: boolean;
      label: string;
      invoiceCount: number;
      createdBy: string;
      createTime: string | null;
      updateTime: string | null;
    }[];
  };
  "invoice.title.insert": {
    kind: "call";
    param: {
      title: {
        name: string;
        taxNo: string;
        bankName?: string | null;
        bankAccount?: string | null;
        address?: string | null;
        phone?: string | null;
      };
    };
    data: {
      id: number;
      name: string;
      taxNo: string;
      bankName: string;
      bankAccount: string;
      address: string;
      phone: string;
      createdBy: string;
      createTime: string;
      updateTime: string;
      invoiceCount: number;
      complete: boolean;
      label: string;
    };
  };
  "invoice.title.modify": {
    kind: "call";
    param: {
      id: number;
      title: {
        name: string;
        taxNo: string;
        bankName?: string | null;
        bankAccount?: string | null;
        address?: string | null;
        phone?: string | null;
      };
    };
    data: {
      id: number;
      name: string;
      taxNo: string;
      bankName: string;
      bankAccount: string;
      address: string;
      phone: string;
      createdBy: string;
      createTime: string;
      updateTime: string;
      invoiceCount: number;
      complete: boolean;
      label: string;
    };
  };
  "invoice.title.delete": {
    kind: "call";
    param: {
      id: number;
    };
    data: {
      id: number;
    };
  };
  "pay.query": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      orderCode: string;
      orderState: "cancelled" | "completed" | "paid" | "pending_payment" | "refunded" | "shipped";
      payState: string;
      paid: boolean;
      payMethod: string;
      payMethodName: string;
      payNo: string;
      payAmount: number;
      payTime: string | null;
      payDeadline: string | null;
      refundTime: string | null;
    };
  };
  "mall.goods.page": {
    kind: "page";
    param: {
      keyword?: string;
      category?: "device" | "card" | "service" | "";
      state?: "on_shelf" | "off_shelf" | "";
    };
    data: {
      records: {
        id: number;
        code: string;
        name: string;
        category: string;
        model: string;
        spec: string;
        unit: string;
        price: number;
        marketPrice: number | null;
        stock: number;
        sales: number;
        freight: number;
        coverImage: string;
        cardCustomCode: string;
        cardCustomName: string;
        cardsPerUnit: number;
        state: string;
        stateName: string;
        sort: number;
        discountTags: string[];
        createdBy: string;
        createTime: string | null;
        updateTime: string | null;
        shelfTime: string | null;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "mall.goods.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      images: string[];
      description: string;
      discounts: {
        code: string;
        name: string;
        scope: "goods" | "order";
        type: "amount" | "rate";
        ruleText: string;
        saving: number | null;
      }[];
      id: number;
      code: string;
      name: string;
      category: string;
      model: string;
      spec: string;
      unit: string;
      price: number;
      marketPrice: number | null;
      stock: number;
      sales: number;
      freight: number;
      coverImage: string;
      cardCustomCode: string;
      cardCustomName: string;
      cardsPerUnit: number;
      state: string;
      stateName: string;
      sort: number;
      discountTags: string[];
      createdBy: string;
      createTime: string | null;
      updateTime: string | null;
      shelfTime: string | null;
    };
  };
  "mall.goods.list": {
    kind: "call";
    param: {
      keyword?: string;
    };
    data: {
      code: string;
      name: string;
      label: string;
      category: string;
      price: number;
      state: string;
    }[];
  };
  "mall.goods.insert": {
    kind: "call";
    param: {
      goods: {
        name: string;
        category: "device" | "card" | "service";
        model?: string;
        spec?: string;
        unit: string;
        price: number;
        marketPrice?: number | null;
        stock: number;
        freight?: number | null;
        /**
         * @minItems 1
         * @maxItems 6
         */
        images: string[];
        description?: string;
        cardCustomCode?: string | null;
        cardsPerUnit?: number | null;
        sort?: number | null;
        updateTime?: string | null;
      };
    };
    data: {
      images: string[];
      description: string;
      discounts: {
        code: string;
        name: string;
        scope: "goods" | "order";
        type: "amount" | "rate";
        ruleText: string;
        saving: number | null;
      }[];
      id: number;
      code: string;
      name: string;
      category: string;
      model: string;
      spec: string;
      unit: string;
      price: number;
      marketPrice: number | null;
      stock: number;
      sales: number;
      freight: number;
      coverImage: string;
      cardCustomCode: string;
      cardCustomName: string;
      cardsPerUnit: number;
      state: string;
      stateName: string;
      sort: number;
      discountTags: string[];
      createdBy: string;
      createTime: string | null;
      updateTime: string | null;
      shelfTime: string | null;
    };
  };
  "mall.goods.modify": {
    kind: "call";
    param: {
      code: string;
      goods: {
        name: string;
        category: "device" | "card" | "service";
        model?: string;
        spec?: string;
        unit: string;
        price: number;
        marketPrice?: number | null;
        stock: number;
        freight?: number | null;
        /**
         * @minItems 1
         * @maxItems 6
         */
        images: string[];
        description?: string;
        cardCustomCode?: string | null;
        cardsPerUnit?: number | null;
        sort?: number | null;
        updateTime?: string | null;
      };
    };
    data: {
      images: string[];
      description: string;
      discounts: {
        code: string;
        name: string;
        scope: "goods" | "order";
        type: "amount" | "rate";
        ruleText: string;
        saving: number | null;
      }[];
      id: number;
      code: string;
      name: string;
      category: string;
      model: string;
      spec: string;
      unit: string;
      price: number;
      marketPrice: number | null;
      stock: number;
      sales: number;
      freight: number;
      coverImage: string;
      cardCustomCode: string;
      cardCustomName: string;
      cardsPerUnit: number;
      state: string;
      stateName: string;
      sort: number;
      discountTags: string[];
      createdBy: string;
      createTime: string | null;
      updateTime: string | null;
      shelfTime: string | null;
    };
  };
  "mall.goods.delete": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      code: string;
    };
  };
  "mall.goods.shelf": {
    kind: "call";
    param: {
      code: string;
      onShelf: boolean;
    };
    data: {
      images: string[];
      description: string;
      discounts: {
        code: string;
        name: string;
        scope: "goods" | "order";
        type: "amount" | "rate";
        ruleText: string;
        saving: number | null;
      }[];
      id: number;
      code: string;
      name: string;
      category: string;
      model: string;
      spec: string;
      unit: string;
      price: number;
      marketPrice: number | null;
      stock: number;
      sales: number;
      freight: number;
      coverImage: string;
      cardCustomCode: string;
      cardCustomName: string;
      cardsPerUnit: number;
      state: string;
      stateName: string;
      sort: number;
      discountTags: string[];
      createdBy: string;
      createTime: string | null;
      updateTime: string | null;
      shelfTime: string | null;
    };
  };
  "mall.order.page": {
    kind: "page";
    param: {
      keyword?: string;
      state?: "pending_payment" | "paid" | "shipped" | "completed" | "cancelled" | "refunded" | "";
      tenantCode?: string;
      /**
       * @maxItems 2
       */
      timeRange?: string[];
    };
    data: {
      records: {
        canPay: boolean;
        canCancel: boolean;
        canConfirmReceipt: boolean;
        canApplyInvoice: boolean;
        canShip: boolean;
        id: number;
        code: string;
        state: "cancelled" | "completed" | "paid" | "pending_payment" | "refunded" | "shipped";
        stateName: string;
        tenantCode: string;
        tenantName: string;
        organizationCode: string;
        organizationName: string;
        goodsAmount: number;
        discountAmount: number;
        freightAmount: number;
        payAmount: number;
        discountCode: string;
        discountName: string;
        receiver: string;
        receiverPhone: string;
        address: string;
        remark: string;
        buyer: string;
        goodsSummary: string;
        itemCount: number;
        coverImage: string;
        cardCount: number;
        createTime: string | null;
        payDeadline: string | null;
        payMethod: string;
        payNo: string;
        payTime: string | null;
        expressCompany: string;
        expressNo: string;
        shipTime: string | null;
        shippedBy: string;
        receiveTime: string | null;
        cancelTime: string | null;
        cancelledBy: string;
        cancelReason: string;
        refundTime: string | null;
        invoiceCode: string;
        invoiceState: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "mall.order.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      items: {
        goodsCode: string;
        goodsName: string;
        category: string;
        spec: string;
        image: string;
        unit: string;
        unitPrice: number;
        quantity: number;
        amount: number;
      }[];
      canPay: boolean;
      canCancel: boolean;
      canConfirmReceipt: boolean;
      canApplyInvoice: boolean;
      canShip: boolean;
      id: number;
      code: string;
      state: "cancelled" | "completed" | "paid" | "pending_payment" | "refunded" | "shipped";
      stateName: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      goodsAmount: number;
      discountAmount: number;
      freightAmount: number;
      payAmount: number;
      discountCode: string;
      discountName: string;
      receiver: string;
      receiverPhone: string;
      address: string;
      remark: string;
      buyer: string;
      goodsSummary: string;
      itemCount: number;
      coverImage: string;
      cardCount: number;
      createTime: string | null;
      payDeadline: string | null;
      payMethod: string;
      payNo: string;
      payTime: string | null;
      expressCompany: string;
      expressNo: string;
      shipTime: string | null;
      shippedBy: string;
      receiveTime: string | null;
      cancelTime: string | null;
      cancelledBy: string;
      cancelReason: string;
      refundTime: string | null;
      invoiceCode: string;
      invoiceState: string;
    };
  };
  "mall.order.export": {
    kind: "blob";
    param: {
      keyword?: string;
      state?: "pending_payment" | "paid" | "shipped" | "completed" | "cancelled" | "refunded" | "";
      tenantCode?: string;
      /**
       * @maxItems 2
       */
      timeRange?: string[];
    };
    data: unknown;
  };
  "mall.myOrder.page": {
    kind: "page";
    param: {
      keyword?: string;
      state?: "pending_payment" | "paid" | "shipped" | "completed" | "cancelled" | "refunded" | "";
    };
    data: {
      records: {
        canPay: boolean;
        canCancel: boolean;
        canConfirmReceipt: boolean;
        canApplyInvoice: boolean;
        canShip: boolean;
        id: number;
        code: string;
        state: "cancelled" | "completed" | "paid" | "pending_payment" | "refunded" | "shipped";
        stateName: string;
        tenantCode: string;
        tenantName: string;
        organizationCode: string;
        organizationName: string;
        goodsAmount: number;
        discountAmount: number;
        freightAmount: number;
        payAmount: number;
        discountCode: string;
        discountName: string;
        receiver: string;
        receiverPhone: string;
        address: string;
        remark: string;
        buyer: string;
        goodsSummary: string;
        itemCount: number;
        coverImage: string;
        cardCount: number;
        createTime: string | null;
        payDeadline: string | null;
        payMethod: string;
        payNo: string;
        payTime: string | null;
        expressCompany: string;
        expressNo: string;
        shipTime: string | null;
        shippedBy: string;
        receiveTime: string | null;
        cancelTime: string | null;
        cancelledBy: string;
        cancelReason: string;
        refundTime: string | null;
        invoiceCode: string;
        invoiceState: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "mall.order.preview": {
    kind: "call";
    param: {
      /**
       * @minItems 1
       * @maxItems 20
       */
      items: {
        goodsCode: string;
        quantity: number;
      }[];
      discountCode?: string;
      addressId?: number;
    };
    data: {
      address: {
        id: number;
        receiver: string;
        phone: string;
        region: string;
        detail: string;
        postcode: string;
        fullAddress: string;
        isDefault: boolean;
        createTime: string | null;
        updateTime: string | null;
      } | null;
      items: {
        goodsCode: string;
        goodsName: string;
        category: string;
        spec: string;
        unit: string;
        image: string;
        unitPrice: number;
        quantity: number;
        amount: number;
        stock: number;
      }[];
      goodsAmount: number;
      discountAmount: number;
      freightAmount: number;
      payAmount: number;
      discount: {
        code: string;
        name: string;
        type: "amount" | "rate";
        scope: "goods" | "order";
        ruleText: string;
        amount: number;
        label: string;
      } | null;
      discounts: {
        code: string;
        name: string;
        type: "amount" | "rate";
        scope: "goods" | "order";
        ruleText: string;
        amount: number;
        label: string;
      }[];
      freeFreightThreshold: number;
      payTimeoutHours: number;
    };
  };
  "mall.order.submit": {
    kind: "call";
    param: {
      /**
       * @minItems 1
       * @maxItems 20
       */
      items: {
        goodsCode: string;
        quantity: number;
      }[];
      discountCode?: string;
      addressId: number;
      remark?: string;
      expectedPayAmount?: number;
    };
    data: {
      items: {
        goodsCode: string;
        goodsName: string;
        category: string;
        spec: string;
        image: string;
        unit: string;
        unitPrice: number;
        quantity: number;
        amount: number;
      }[];
      canPay: boolean;
      canCancel: boolean;
      canConfirmReceipt: boolean;
      canApplyInvoice: boolean;
      canShip: boolean;
      id: number;
      code: string;
      state: "cancelled" | "completed" | "paid" | "pending_payment" | "refunded" | "shipped";
      stateName: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      goodsAmount: number;
      discountAmount: number;
      freightAmount: number;
      payAmount: number;
      discountCode: string;
      discountName: string;
      receiver: string;
      receiverPhone: string;
      address: string;
      remark: string;
      buyer: string;
      goodsSummary: string;
      itemCount: number;
      coverImage: string;
      cardCount: number;
      createTime: string | null;
      payDeadline: string | null;
      payMethod: string;
      payNo: string;
      payTime: string | null;
      expressCompany: string;
      expressNo: string;
      shipTime: string | null;
      shippedBy: string;
      receiveTime: string | null;
      cancelTime: string | null;
      cancelledBy: string;
      cancelReason: string;
      refundTime: string | null;
      invoiceCode: string;
      invoiceState: string;
    };
  };
  "mall.order.pay": {
    kind: "call";
    param: {
      code: string;
      payMethod: "wechat" | "alipay";
    };
    data: {
      orderCode: string;
      orderState: "cancelled" | "completed" | "paid" | "pending_payment" | "refunded" | "shipped";
      payState: string;
      paid: boolean;
      payMethod: string;
      payMethodName: string;
      payNo: string;
      payAmount: number;
      payTime: string | null;
      payDeadline: string | null;
      refundTime: string | null;
    };
  };
  "mall.order.cancel": {
    kind: "call";
    param: {
      code: string;
      reason?: string;
    };
    data: {
      items: {
        goodsCode: string;
        goodsName: string;
        category: string;
        spec: string;
        image: string;
        unit: string;
        unitPrice: number;
        quantity: number;
        amount: number;
      }[];
      canPay: boolean;
      canCancel: boolean;
      canConfirmReceipt: boolean;
      canApplyInvoice: boolean;
      canShip: boolean;
      id: number;
      code: string;
      state: "cancelled" | "completed" | "paid" | "pending_payment" | "refunded" | "shipped";
      stateName: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      goodsAmount: number;
      discountAmount: number;
      freightAmount: number;
      payAmount: number;
      discountCode: string;
      discountName: string;
      receiver: string;
      receiverPhone: string;
      address: string;
      remark: string;
      buyer: string;
      goodsSummary: string;
      itemCount: number;
      coverImage: string;
      cardCount: number;
      createTime: string | null;
      payDeadline: string | null;
      payMethod: string;
      payNo: string;
      payTime: string | null;
      expressCompany: string;
      expressNo: string;
      shipTime: string | null;
      shippedBy: string;
      receiveTime: string | null;
      cancelTime: string | null;
      cancelledBy: string;
      cancelReason: string;
      refundTime: string | null;
      invoiceCode: string;
      invoiceState: string;
    };
  };
  "mall.order.ship": {
    kind: "call";
    param: {
      code: string;
      expressCompany: "sf" | "jd" | "zto" | "ems";
      expressNo: string;
    };
    data: {
      items: {
        goodsCode: string;
        goodsName: string;
        category: string;
        spec: string;
        image: string;
        unit: string;
        unitPrice: number;
        quantity: number;
        amount: number;
      }[];
      canPay: boolean;
      canCancel: boolean;
      canConfirmReceipt: boolean;
      canApplyInvoice: boolean;
      canShip: boolean;
      id: number;
      code: string;
      state: "cancelled" | "completed" | "paid" | "pending_payment" | "refunded" | "shipped";
      stateName: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      goodsAmount: number;
      discountAmount: number;
      freightAmount: number;
      payAmount: number;
      discountCode: string;
      discountName: string;
      receiver: string;
      receiverPhone: string;
      address: string;
      remark: string;
      buyer: string;
      goodsSummary: string;
      itemCount: number;
      coverImage: string;
      cardCount: number;
      createTime: string | null;
      payDeadline: string | null;
      payMethod: string;
      payNo: string;
      payTime: string | null;
      expressCompany: string;
      expressNo: string;
      shipTime: string | null;
      shippedBy: string;
      receiveTime: string | null;
      cancelTime: string | null;
      cancelledBy: string;
      cancelReason: string;
      refundTime: string | null;
      invoiceCode: string;
      invoiceState: string;
    };
  };
  "mall.order.confirmReceipt": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      items: {
        goodsCode: string;
        goodsName: string;
        category: string;
        spec: string;
        image: string;
        unit: string;
        unitPrice: number;
        quantity: number;
        amount: number;
      }[];
      canPay: boolean;
      canCancel: boolean;
      canConfirmReceipt: boolean;
      canApplyInvoice: boolean;
      canShip: boolean;
      id: number;
      code: string;
      state: "cancelled" | "completed" | "paid" | "pending_payment" | "refunded" | "shipped";
      stateName: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      goodsAmount: number;
      discountAmount: number;
      freightAmount: number;
      payAmount: number;
      discountCode: string;
      discountName: string;
      receiver: string;
      receiverPhone: string;
      address: string;
      remark: string;
      buyer: string;
      goodsSummary: string;
      itemCount: number;
      coverImage: string;
      cardCount: number;
      createTime: string | null;
      payDeadline: string | null;
      payMethod: string;
      payNo: string;
      payTime: string | null;
      expressCompany: string;
      expressNo: string;
      shipTime: string | null;
      shippedBy: string;
      receiveTime: string | null;
      cancelTime: string | null;
      cancelledBy: string;
      cancelReason: string;
      refundTime: string | null;
      invoiceCode: string;
      invoiceState: string;
    };
  };
  "mall.order.expressInfo": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      code: string;
      state: "cancelled" | "completed" | "paid" | "pending_payment" | "refunded" | "shipped";
      stateName: string;
      receiver: string;
      receiverPhone: string;
      address: string;
      expressCompany: string;
      expressCompanyName: string;
      expressNo: string;
      shipTime: string | null;
      receiveTime: string | null;
      expressState: string;
      traces: {
        time: string;
        status: string;
        description: string;
      }[];
    };
  };
  "mall.address.list": {
    kind: "call";
    param: Record<string, never>;
    data: {
      id: number;
      receiver: string;
      phone: string;
      region: string;
      detail: string;
      postcode: string;
      fullAddress: string;
      isDefault: boolean;
      createTime: string | null;
      updateTime: string | null;
    }[];
  };
  "mall.address.page": {
    kind: "page";
    param: {
      keyword?: string | null;
    };
    data: {
      records: {
        id: number;
        receiver: string;
        phone: string;
        region: string;
        detail: string;
        postcode: string;
        isDefault: boolean;
        createTime: string;
        updateTime: string;
        fullAddress: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "mall.address.detail": {
    kind: "call";
    param: {
      id: number;
    };
    data: {
      id: number;
      receiver: string;
      phone: string;
      region: string;
      detail: string;
      postcode: string;
      isDefault: boolean;
      createTime: string;
      updateTime: string;
      fullAddress: string;
    };
  };
  "mall.address.insert": {
    kind: "call";
    param: {
      address: {
        receiver: string;
        phone: string;
        region: string;
        detail: string;
        postcode?: string | null;
        isDefault?: boolean | null;
      };
    };
    data: {
      id: number;
      receiver: string;
      phone: string;
      region: string;
      detail: string;
      postcode: string;
      isDefault: boolean;
      createTime: string;
      updateTime: string;
      fullAddress: string;
    };
  };
  "mall.address.modify": {
    kind: "call";
    param: {
      id: number;
      address: {
        receiver: string;
        phone: string;
        region: string;
        detail: string;
        postcode?: string | null;
        isDefault?: boolean | null;
      };
    };
    data: {
      id: number;
      receiver: string;
      phone: string;
      region: string;
      detail: string;
      postcode: string;
      isDefault: boolean;
      createTime: string;
      updateTime: string;
      fullAddress: string;
    };
  };
  "mall.address.delete": {
    kind: "call";
    param: {
      id: number;
    };
    data: {
      id: number;
    };
  };
  "mall.address.setDefault": {
    kind: "call";
    param: {
      id: number;
    };
    data: {
      id: number;
      receiver: string;
      phone: string;
      region: string;
      detail: string;
      postcode: string;
      fullAddress: string;
      isDefault: boolean;
      createTime: string | null;
      updateTime: string | null;
    };
  };
  "mall.discount.page": {
    kind: "page";
    param: {
      keyword?: string;
      type?: "amount" | "rate" | "";
      scope?: "goods" | "order" | "";
      state?: "not_started" | "active" | "ended" | "";
    };
    data: {
      records: {
        id: number;
        code: string;
        name: string;
        type: "amount" | "rate";
        scope: "goods" | "order";
        goodsCodes: string[];
        goodsNames: string;
        threshold: number;
        reduceAmount: number | null;
        rate: number | null;
        ruleText: string;
        startTime: string;
        endTime: string;
        timeRange: string[];
        state: "active" | "ended" | "not_started";
        stateName: string;
        usedCount: number;
        remark: string;
        createdBy: string;
        createTime: string | null;
        updateTime: string | null;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "mall.discount.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      id: number;
      code: string;
      name: string;
      type: "amount" | "rate";
      scope: "goods" | "order";
      goodsCodes: string[];
      goodsNames: string;
      threshold: number;
      reduceAmount: number | null;
      rate: number | null;
      ruleText: string;
      startTime: string;
      endTime: string;
      timeRange: string[];
      state: "active" | "ended" | "not_started";
      stateName: string;
      usedCount: number;
      remark: string;
      createdBy: string;
      createTime: string | null;
      updateTime: string | null;
    };
  };
  "mall.discount.insert": {
    kind: "call";
    param: {
      discount: {
        name: string;
        type: "amount" | "rate";
        scope: "goods" | "order";
        /**
         * @maxItems 50
         */
        goodsCodes?: string[];
        threshold?: number | null;
        reduceAmount?: number | null;
        rate?: number | null;
        /**
         * @minItems 2
         * @maxItems 2
         */
        timeRange: string[];
        remark?: string;
      };
    };
    data: {
      id: number;
      code: string;
      name: string;
      type: "amount" | "rate";
      scope: "goods" | "order";
      goodsCodes: string[];
      goodsNames: string;
      threshold: number;
      reduceAmount: number | null;
      rate: number | null;
      ruleText: string;
      startTime: string;
      endTime: string;
      timeRange: string[];
      state: "active" | "ended" | "not_started";
      stateName: string;
      usedCount: number;
      remark: string;
      createdBy: string;
      createTime: string | null;
      updateTime: string | null;
    };
  };
  "mall.discount.modify": {
    kind: "call";
    param: {
      code: string;
      discount: {
        name: string;
        type: "amount" | "rate";
        scope: "goods" | "order";
        /**
         * @maxItems 50
         */
        goodsCodes?: string[];
        threshold?: number | null;
        reduceAmount?: number | null;
        rate?: number | null;
        /**
         * @minItems 2
         * @maxItems 2
         */
        timeRange: string[];
        remark?: string;
      };
    };
    data: {
      id: number;
      code: string;
      name: string;
      type: "amount" | "rate";
      scope: "goods" | "order";
      goodsCodes: string[];
      goodsNames: string;
      threshold: number;
      reduceAmount: number | null;
      rate: number | null;
      ruleText: string;
      startTime: string;
      endTime: string;
      timeRange: string[];
      state: "active" | "ended" | "not_started";
      stateName: string;
      usedCount: number;
      remark: string;
      createdBy: string;
      createTime: string | null;
      updateTime: string | null;
    };
  };
  "mall.discount.delete": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      code: string;
    };
  };
  "card.order.page": {
    kind: "page";
    param: {
      keyword?: string;
      state?: "pending_delivery" | "delivering" | "pending_confirm" | "confirmed" | "completed" | "cancelled" | "";
      operator?: "cmcc" | "cucc" | "ctcc" | "cbn" | "";
      tenantCode?: string;
      organizationCode?: string;
    };
    data: {
      records: {
        id: number;
        code: string;
        saleOrderCode: string;
        tenantCode: string;
        tenantName: string;
        organizationCode: string;
        organizationName: string;
        customCode: string;
        customName: string;
        packageCode: string;
        packageName: string;
        operator: string;
        state: "cancelled" | "completed" | "confirmed" | "delivering" | "pending_confirm" | "pending_delivery";
        cardCount: number;
        shippedCount: number;
        years: number;
        unitPrice: number | null;
        amount: number | null;
        receivedAmount: number | null;
        unreceivedAmount: number;
        salesperson: string;
        contactName: string;
        contactPhone: string;
        address: string;
        remark: string;
        createTime: string | null;
        confirmTime: string | null;
        confirmedBy: string;
        cancelTime: string | null;
        cancelReason: string;
        completeTime: string | null;
        syncTime: string | null;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "card.order.user.page": {
    kind: "page";
    param: {
      keyword?: string;
    };
    data: {
      records: {
        canConfirm: boolean;
        id: number;
        code: string;
        saleOrderCode: string;
        tenantCode: string;
        tenantName: string;
        organizationCode: string;
        organizationName: string;
        customCode: string;
        customName: string;
        packageCode: string;
        packageName: string;
        operator: string;
        state: "cancelled" | "completed" | "confirmed" | "delivering" | "pending_confirm" | "pending_delivery";
        cardCount: number;
        shippedCount: number;
        years: number;
        unitPrice: number | null;
        amount: number | null;
        receivedAmount: number | null;
        unreceivedAmount: number;
        salesperson: string;
        contactName: string;
        contactPhone: string;
        address: string;
        remark: string;
        createTime: string | null;
        confirmTime: string | null;
        confirmedBy: string;
        cancelTime: string | null;
        cancelReason: string;
        completeTime: string | null;
        syncTime: string | null;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "card.order.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      operatorName: string;
      canConfirm: boolean;
      deliveries: {
        code: string;
        state: string;
        cardCount: number;
        expressCompany: string;
        expressNo: string;
        receiver: string;
        createTime: string | null;
        shipTime: string | null;
        receiveTime: string | null;
      }[];
      cardStates: {
        state: string;
        cardCount: number;
      }[];
      id: number;
      code: string;
      saleOrderCode: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      customCode: string;
      customName: string;
      packageCode: string;
      packageName: string;
      operator: string;
      state: "cancelled" | "completed" | "confirmed" | "delivering" | "pending_confirm" | "pending_delivery";
      cardCount: number;
      shippedCount: number;
      years: number;
      unitPrice: number | null;
      amount: number | null;
      receivedAmount: number | null;
      unreceivedAmount: number;
      salesperson: string;
      contactName: string;
      contactPhone: string;
      address: string;
      remark: string;
      createTime: string | null;
      confirmTime: string | null;
      confirmedBy: string;
      cancelTime: string | null;
      cancelReason: string;
      completeTime: string | null;
      syncTime: string | null;
    };
  };
  "card.order.confirm": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      id: number;
      code: string;
      saleOrderCode: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      customCode: string;
      customName: string;
      packageCode: string;
      packageName: string;
      operator: string;
      state: "cancelled" | "completed" | "confirmed" | "delivering" | "pending_confirm" | "pending_delivery";
      cardCount: number;
      shippedCount: number;
      years: number;
      unitPrice: number | null;
      amount: number | null;
      receivedAmount: number | null;
      unreceivedAmount: number;
      salesperson: string;
      contactName: string;
      contactPhone: string;
      address: string;
      remark: string;
      createTime: string | null;
      confirmTime: string | null;
      confirmedBy: string;
      cancelTime: string | null;
      cancelReason: string;
      completeTime: string | null;
      syncTime: string | null;
    };
  };
  "card.order.cancel": {
    kind: "call";
    param: {
      code: string;
      reason?: string;
    };
    data: {
      id: number;
      code: string;
      saleOrderCode: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      customCode: string;
      customName: string;
      packageCode: string;
      packageName: string;
      operator: string;
      state: "cancelled" | "completed" | "confirmed" | "delivering" | "pending_confirm" | "pending_delivery";
      cardCount: number;
      shippedCount: number;
      years: number;
      unitPrice: number | null;
      amount: number | null;
      receivedAmount: number | null;
      unreceivedAmount: number;
      salesperson: string;
      contactName: string;
      contactPhone: string;
      address: string;
      remark: string;
      createTime: string | null;
      confirmTime: string | null;
      confirmedBy: string;
      cancelTime: string | null;
      cancelReason: string;
      completeTime: string | null;
      syncTime: string | null;
    };
  };
  "card.order.sync": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      id: number;
      code: string;
      saleOrderCode: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      customCode: string;
      customName: string;
      packageCode: string;
      packageName: string;
      operator: string;
      state: "cancelled" | "completed" | "confirmed" | "delivering" | "pending_confirm" | "pending_delivery";
      cardCount: number;
      shippedCount: number;
      years: number;
      unitPrice: number | null;
      amount: number | null;
      receivedAmount: number | null;
      unreceivedAmount: number;
      salesperson: string;
      contactName: string;
      contactPhone: string;
      address: string;
      remark: string;
      createTime: string | null;
      confirmTime: string | null;
      confirmedBy: string;
      cancelTime: string | null;
      cancelReason: string;
      completeTime: string | null;
      syncTime: string | null;
    };
  };
  "card.order.export": {
    kind: "blob";
    param: {
      keyword?: string;
      state?: "pending_delivery" | "delivering" | "pending_confirm" | "confirmed" | "completed" | "cancelled" | "";
      operator?: "cmcc" | "cucc" | "ctcc" | "cbn" | "";
      tenantCode?: string;
      organizationCode?: string;
    };
    data: unknown;
  };
  "card.order.isBulletBox": {
    kind: "call";
    param: Record<string, never>;
    data: "0" | "1";
  };
  "card.syncTime.get": {
    kind: "call";
    param: Record<string, never>;
    data: {
      simSyncTime: string | null;
      orderSyncTime: string | null;
      saleOrderSyncTime: string | null;
      records: {
        kind: string;
        syncTime: string | null;
        syncedBy: string;
        summary: string;
      }[];
    };
  };
  "card.saleOrder.sync": {
    kind: "call";
    param: Record<string, never>;
    data: {
      imported: number;
      codes: string[];
    };
  };
  "card.supplier.list": {
    kind: "call";
    param: Record<string, never>;
    data: {
      code: string;
      name: string;
      operator: string;
      operatorName: string;
      contactName: string;
      contactPhone: string;
    }[];
  };
  "card.delivery.page": {
    kind: "page";
    param: {
      keyword?: string;
      state?: "created" | "shipped" | "received" | "revoked" | "cancelled" | "";
      tenantCode?: string;
      orderCode?: string;
    };
    data: {
      records: {
        id: number;
        code: string;
        orderCode: string;
        orderState: string;
        tenantCode: string;
        tenantName: string;
        organizationCode: string;
        organizationName: string;
        customName: string;
        state: "cancelled" | "created" | "received" | "revoked" | "shipped";
        cardCount: number;
        expressCompany: string;
        expressCompanyName: string;
        expressNo: string;
        receiver: string;
        receiverPhone: string;
        address: string;
        remark: string;
        revokeReason: string;
        createdBy: string;
        shippedBy: string;
        createTime: string | null;
        shipTime: string | null;
        receiveTime: string | null;
        revokeTime: string | null;
        cancelTime: string | null;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "card.delivery.customInfo": {
    kind: "call";
    param: {
      orderCode: string;
    };
    data: {
      orderCode: string;
      tenantCode: string;
      tenantName: string;
      organizationName: string;
      customName: string;
      cardCount: number;
      receiver: string;
      receiverPhone: string;
      address: string;
      availableStock: number;
    };
  };
  "card.delivery.update": {
    kind: "call";
    param: {
      code: string;
      expressCompany?: "sf" | "jd" | "zto" | "ems";
      expressNo?: string;
      receiver: string;
      receiverPhone: string;
      address: string;
    };
    data: {
      id: number;
      code: string;
      orderCode: string;
      orderState: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      customName: string;
      state: "cancelled" | "created" | "received" | "revoked" | "shipped";
      cardCount: number;
      expressCompany: string;
      expressCompanyName: string;
      expressNo: string;
      receiver: string;
      receiverPhone: string;
      address: string;
      remark: string;
      revokeReason: string;
      createdBy: string;
      shippedBy: string;
      createTime: string | null;
      shipTime: string | null;
      receiveTime: string | null;
      revokeTime: string | null;
      cancelTime: string | null;
    };
  };
  "card.delivery.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      items: {
        iccid: string;
        msisdn: string;
        state: string;
        operator: string;
      }[];
      id: number;
      code: string;
      orderCode: string;
      orderState: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      customName: string;
      state: "cancelled" | "created" | "received" | "revoked" | "shipped";
      cardCount: number;
      expressCompany: string;
      expressCompanyName: string;
      expressNo: string;
      receiver: string;
      receiverPhone: string;
      address: string;
      remark: string;
      revokeReason: string;
      createdBy: string;
      shippedBy: string;
      createTime: string | null;
      shipTime: string | null;
      receiveTime: string | null;
      revokeTime: string | null;
      cancelTime: string | null;
    };
  };
  "card.delivery.fusionDetail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      order: {
        id: number;
        code: string;
        saleOrderCode: string;
        tenantCode: string;
        tenantName: string;
        organizationCode: string;
        organizationName: string;
        customCode: string;
        customName: string;
        packageCode: string;
        packageName: string;
        operator: string;
        state: "cancelled" | "completed" | "confirmed" | "delivering" | "pending_confirm" | "pending_delivery";
        cardCount: number;
        shippedCount: number;
        years: number;
        unitPrice: number | null;
        amount: number | null;
        receivedAmount: number | null;
        unreceivedAmount: number;
        salesperson: string;
        contactName: string;
        contactPhone: string;
        address: string;
        remark: string;
        createTime: string | null;
        confirmTime: string | null;
        confirmedBy: string;
        cancelTime: string | null;
        cancelReason: string;
        completeTime: string | null;
        syncTime: string | null;
      };
      trace: {
        time: string | null;
        event: string;
      }[];
      id: number;
      code: string;
      orderCode: string;
      orderState: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      customName: string;
      state: "cancelled" | "created" | "received" | "revoked" | "shipped";
      cardCount: number;
      expressCompany: string;
      expressCompanyName: string;
      expressNo: string;
      receiver: string;
      receiverPhone: string;
      address: string;
      remark: string;
      revokeReason: string;
      createdBy: string;
      shippedBy: string;
      createTime: string | null;
      shipTime: string | null;
      receiveTime: string | null;
      revokeTime: string | null;
      cancelTime: string | null;
    };
  };
  "card.delivery.generate": {
    kind: "call";
    param: {
      orderCode: string;
      receiver?: string;
      receiverPhone?: string;
      address?: string;
      remark?: string;
    };
    data: {
      id: number;
      code: string;
      orderCode: string;
      orderState: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      customName: string;
      state: "cancelled" | "created" | "received" | "revoked" | "shipped";
      cardCount: number;
      expressCompany: string;
      expressCompanyName: string;
      expressNo: string;
      receiver: string;
      receiverPhone: string;
      address: string;
      remark: string;
      revokeReason: string;
      createdBy: string;
      shippedBy: string;
      createTime: string | null;
      shipTime: string | null;
      receiveTime: string | null;
      revokeTime: string | null;
      cancelTime: string | null;
    };
  };
  "card.delivery.confirm": {
    kind: "call";
    param: {
      code: string;
      expressCompany: "sf" | "jd" | "zto" | "ems";
      expressNo: string;
    };
    data: {
      id: number;
      code: string;
      orderCode: string;
      orderState: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      customName: string;
      state: "cancelled" | "created" | "received" | "revoked" | "shipped";
      cardCount: number;
      expressCompany: string;
      expressCompanyName: string;
      expressNo: string;
      receiver: string;
      receiverPhone: string;
      address: string;
      remark: string;
      revokeReason: string;
      createdBy: string;
      shippedBy: string;
      createTime: string | null;
      shipTime: string | null;
      receiveTime: string | null;
      revokeTime: string | null;
      cancelTime: string | null;
    };
  };
  "card.delivery.revoke": {
    kind: "call";
    param: {
      code: string;
      reason: string;
    };
    data: {
      id: number;
      code: string;
      orderCode: string;
      orderState: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      customName: string;
      state: "cancelled" | "created" | "received" | "revoked" | "shipped";
      cardCount: number;
      expressCompany: string;
      expressCompanyName: string;
      expressNo: string;
      receiver: string;
      receiverPhone: string;
      address: string;
      remark: string;
      revokeReason: string;
      createdBy: string;
      shippedBy: string;
      createTime: string | null;
      shipTime: string | null;
      receiveTime: string | null;
      revokeTime: string | null;
      cancelTime: string | null;
    };
  };
  "card.delivery.cancel": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      id: number;
      code: string;
      orderCode: string;
      orderState: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      customName: string;
      state: "cancelled" | "created" | "received" | "revoked" | "shipped";
      cardCount: number;
      expressCompany: string;
      expressCompanyName: string;
      expressNo: string;
      receiver: string;
      receiverPhone: string;
      address: string;
      remark: string;
      revokeReason: string;
      createdBy: string;
      shippedBy: string;
      createTime: string | null;
      shipTime: string | null;
      receiveTime: string | null;
      revokeTime: string | null;
      cancelTime: string | null;
    };
  };
  "card.delivery.salesList": {
    kind: "call";
    param: Record<string, never>;
    data: {
      orderCode: string;
      label: string;
      tenantName: string;
      cardCount: number;
      customName: string;
      salesperson: string;
      availableStock: number;
    }[];
  };
  "card.delivery.remark": {
    kind: "call";
    param: {
      code: string;
      remark: string;
    };
    data: {
      id: number;
      code: string;
      orderCode: string;
      orderState: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      customName: string;
      state: "cancelled" | "created" | "received" | "revoked" | "shipped";
      cardCount: number;
      expressCompany: string;
      expressCompanyName: string;
      expressNo: string;
      receiver: string;
      receiverPhone: string;
      address: string;
      remark: string;
      revokeReason: string;
      createdBy: string;
      shippedBy: string;
      createTime: string | null;
      shipTime: string | null;
      receiveTime: string | null;
      revokeTime: string | null;
      cancelTime: string | null;
    };
  };
  "card.delivery.batchExport": {
    kind: "blob";
    param: {
      keyword?: string;
      state?: "created" | "shipped" | "received" | "revoked" | "cancelled" | "";
      tenantCode?: string;
      orderCode?: string;
      /**
       * @maxItems 500
       */
      codes?: string[];
    };
    data: unknown;
  };
  "card.sim.page": {
    kind: "page";
    param: {
      keyword?: string;
      state?: "in_stock" | "testing" | "active" | "suspended" | "deactivated" | "replaced" | "";
      operator?: "cmcc" | "cucc" | "ctcc" | "cbn" | "";
      network?: "nb" | "cat1" | "4g" | "5g" | "";
      tenantCode?: string;
      organizationCode?: string;
      packageCode?: string;
      expiry?: "expiring30" | "expiring60" | "expired" | "";
      bound?: "yes" | "no" | "";
    };
    data: {
      records: {
        id: number;
        iccid: string;
        msisdn: string;
        imsi: string;
        operator: string;
        supplierName: string;
        customCode: string;
        customName: string;
        packageCode: string;
        packageName: string;
        network: string;
        flowMb: number;
        state: string;
        tenantCode: string;
        tenantName: string;
        organizationCode: string;
        organizationName: string;
        orderCode: string;
        deliveryCode: string;
        alterCode: string;
        inReplacement: boolean;
        replaceable: boolean;
        deviceCode: string;
        deviceName: string;
        batchCode: string;
        testUntil: string | null;
        activateTime: string | null;
        expireTime: string | null;
        daysLeft: number | null;
        monthUsedMb: number;
        remainingMb: number;
        usagePercent: number;
        totalUsedMb: number;
        lastSessionTime: string | null;
        ceaseReason: string;
        suspendTime: string | null;
        deactivateTime: string | null;
        replacedBy: string;
        syncTime: string | null;
        remark: string;
        createTime: string | null;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "card.sim.detail": {
    kind: "call";
    param: {
      iccid: string;
    };
    data: {
      operatorName: string;
      stateName: string;
      ceaseReasonName: string;
      history: {
        kind: string;
        code: string;
        state: string;
        time: string | null;
        note: string;
      }[];
      id: number;
      iccid: string;
      msisdn: string;
      imsi: string;
      operator: string;
      supplierName: string;
      customCode: string;
      customName: string;
      packageCode: string;
      packageName: string;
      network: string;
      flowMb: number;
      state: "active" | "deactivated" | "in_stock" | "replaced" | "suspended" | "testing";
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      orderCode: string;
      deliveryCode: string;
      alterCode: string;
      inReplacement: boolean;
      replaceable: boolean;
      deviceCode: string;
      deviceName: string;
      batchCode: string;
      testUntil: string | null;
      activateTime: string | null;
      expireTime: string | null;
      daysLeft: number | null;
      monthUsedMb: number;
      remainingMb: number;
      usagePercent: number;
      totalUsedMb: number;
      lastSessionTime: string | null;
      ceaseReason: string;
      suspendTime: string | null;
      deactivateTime: string | null;
      replacedBy: string;
      syncTime: string | null;
      remark: string;
      createTime: string | null;
      deviceImei: string;
      deviceSignal: number | null;
    };
  };
  "card.sim.operDetail": {
    kind: "call";
    param: {
      iccid: string;
    };
    data: {
      iccid: string;
      msisdn: string;
      imsi: string;
      operator: string;
      operatorName: string;
      platformName: string;
      apn: string;
      productName: string;
      network: string;
      operatorStatus: string;
      openTime: string | null;
      activateTime: string | null;
      expireTime: string | null;
      imei: string;
      imeiLocked: boolean;
      smsEnabled: boolean;
      voiceEnabled: boolean;
      realNameType: string;
      syncTime: string | null;
    };
  };
  "card.sim.deactivate": {
    kind: "call";
    param: {
      iccid: string;
      reason: "customer_request" | "abnormal_usage" | "machine_card_separation" | "arrears" | "expired";
      remark?: string;
    };
    data: {
      id: number;
      iccid: string;
      msisdn: string;
      imsi: string;
      operator: string;
      supplierName: string;
      customCode: string;
      customName: string;
      packageCode: string;
      packageName: string;
      network: string;
      flowMb: number;
      state: "active" | "deactivated" | "in_stock" | "replaced" | "suspended" | "testing";
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      orderCode: string;
      deliveryCode: string;
      alterCode: string;
      inReplacement: boolean;
      replaceable: boolean;
      deviceCode: string;
      deviceName: string;
      batchCode: string;
      testUntil: string | null;
      activateTime: string | null;
      expireTime: string | null;
      daysLeft: number | null;
      monthUsedMb: number;
      remainingMb: number;
      usagePercent: number;
      totalUsedMb: number;
      lastSessionTime: string | null;
      ceaseReason: string;
      suspendTime: string | null;
      deactivateTime: string | null;
      replacedBy: string;
      syncTime: string | null;
      remark: string;
      createTime: string | null;
      deviceImei: string;
      deviceSignal: number | null;
    };
  };
  "card.sim.resumption": {
    kind: "call";
    param: {
      iccid: string;
    };
    data: {
      id: number;
      iccid: string;
      msisdn: string;
      imsi: string;
      operator: string;
      supplierName: string;
      customCode: string;
      customName: string;
      packageCode: string;
      packageName: string;
      network: string;
      flowMb: number;
      state: "active" | "deactivated" | "in_stock" | "replaced" | "suspended" | "testing";
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      orderCode: string;
      deliveryCode: string;
      alterCode: string;
      inReplacement: boolean;
      replaceable: boolean;
      deviceCode: string;
      deviceName: string;
      batchCode: string;
      testUntil: string | null;
      activateTime: string | null;
      expireTime: string | null;
      daysLeft: number | null;
      monthUsedMb: number;
      remainingMb: number;
      usagePercent: number;
      totalUsedMb: number;
      lastSessionTime: string | null;
      ceaseReason: string;
      suspendTime: string | null;
      deactivateTime: string | null;
      replacedBy: string;
      syncTime: string | null;
      remark: string;
      createTime: string | null;
      deviceImei: string;
      deviceSignal: number | null;
    };
  };
  "card.sim.sync": {
    kind: "call";
    param: {
      /**
       * @maxItems 5000
       */
      iccids?: string[];
    };
    data: {
      synced: number;
      started: number;
      suspended: number;
      deactivated: number;
      renewals: number;
    };
  };
  "card.sim.runInfo": {
    kind: "call";
    param: {
      iccid: string;
    };
    data: {
      iccid: string;
      online: boolean;
      onlineState: string;
      sessionStartTime: string | null;
      lastSessionTime: string | null;
      ipAddress: string;
      apn: string;
      rat: string;
      rssi: number | null;
      monthUsedMb: number;
      flowMb: number;
      remainingMb: number;
      usagePercent: number;
      deviceCode: string;
    };
  };
  "card.sim.export": {
    kind: "blob";
    param: {
      keyword?: string;
      state?: "in_stock" | "testing" | "active" | "suspended" | "deactivated" | "replaced" | "";
      operator?: "cmcc" | "cucc" | "ctcc" | "cbn" | "";
      network?: "nb" | "cat1" | "4g" | "5g" | "";
      tenantCode?: string;
      organizationCode?: string;
      packageCode?: string;
      expiry?: "expiring30" | "expiring60" | "expired" | "";
      bound?: "yes" | "no" | "";
    };
    data: unknown;
  };
  "card.alterDelivery.page": {
    kind: "page";
    param: {
      keyword?: string;
      state?: "applied" | "created" | "shipped" | "recovered" | "cancelled" | "";
      kind?: "with_card" | "no_card" | "";
      tenantCode?: string;
    };
    data: {
      records: {
        id: number;
        code: string;
        tenantCode: string;
        tenantName: string;
        organizationCode: string;
        organizationName: string;
        kind: "no_card" | "with_card";
        state: "applied" | "cancelled" | "created" | "recovered" | "shipped";
        reason: string;
        cardCount: number;
        assignedCount: number;
        recoveredCount: number;
        expressCompany: string;
        expressCompanyName: string;
        expressNo: string;
        receiver: string;
        receiverPhone: string;
        address: string;
        applicant: string;
        createTime: string | null;
        waybillTime: string | null;
        shipTime: string | null;
        recoverTime: string | null;
        cancelTime: string | null;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "card.alterDelivery.jdCreate": {
    kind: "call";
    param: {
      code: string;
      expressNo?: string;
    };
    data: {
      id: number;
      code: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      kind: "no_card" | "with_card";
      state: "applied" | "cancelled" | "created" | "recovered" | "shipped";
      reason: string;
      cardCount: number;
      assignedCount: number;
      recoveredCount: number;
      expressCompany: string;
      expressCompanyName: string;
      expressNo: string;
      receiver: string;
      receiverPhone: string;
      address: string;
      applicant: string;
      createTime: string | null;
      waybillTime: string | null;
      shipTime: string | null;
      recoverTime: string | null;
      cancelTime: string | null;
    };
  };
  "card.alterDelivery.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      items: {
        oldIccid: string;
        oldMsisdn: string;
        deviceCode: string;
        newIccid: string;
        newMsisdn: string;
        recovered: boolean;
        recoverTime: string | null;
      }[];
      id: number;
      code: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      kind: "no_card" | "with_card";
      state: "applied" | "cancelled" | "created" | "recovered" | "shipped";
      reason: string;
      cardCount: number;
      assignedCount: number;
      recoveredCount: number;
      expressCompany: string;
      expressCompanyName: string;
      expressNo: string;
      receiver: string;
      receiverPhone: string;
      address: string;
      applicant: string;
      createTime: string | null;
      waybillTime: string | null;
      shipTime: string | null;
      recoverTime: string | null;
      cancelTime: string | null;
    };
  };
  "card.alterDelivery.cancel": {
    kind: "call";
    param: {
      code: string;
      reason?: string;
    };
    data: {
      id: number;
      code: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      kind: "no_card" | "with_card";
      state: "applied" | "cancelled" | "created" | "recovered" | "shipped";
      reason: string;
      cardCount: number;
      assignedCount: number;
      recoveredCount: number;
      expressCompany: string;
      expressCompanyName: string;
      expressNo: string;
      receiver: string;
      receiverPhone: string;
      address: string;
      applicant: string;
      createTime: string | null;
      waybillTime: string | null;
      shipTime: string | null;
      recoverTime: string | null;
      cancelTime: string | null;
    };
  };
  "card.alterDelivery.recovery": {
    kind: "call";
    param: {
      code: string;
      /**
       * @minItems 1
       * @maxItems 50
       */
      iccids: string[];
    };
    data: {
      alter: {
        id: number;
        code: string;
        tenantCode: string;
        tenantName: string;
        organizationCode: string;
        organizationName: string;
        kind: "no_card" | "with_card";
        state: "applied" | "cancelled" | "created" | "recovered" | "shipped";
        reason: string;
        cardCount: number;
        assignedCount: number;
        recoveredCount: number;
        expressCompany: string;
        expressCompanyName: string;
        expressNo: string;
        receiver: string;
        receiverPhone: string;
        address: string;
        applicant: string;
        createTime: string | null;
        waybillTime: string | null;
        shipTime: string | null;
        recoverTime: string | null;
        cancelTime: string | null;
      };
      recovered: number;
      remaining: number;
    };
  };
  "card.alterDelivery.recoveryAll": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      alter: {
        id: number;
        code: string;
        tenantCode: string;
        tenantName: string;
        organizationCode: string;
        organizationName: string;
        kind: "no_card" | "with_card";
        state: "applied" | "cancelled" | "created" | "recovered" | "shipped";
        reason: string;
        cardCount: number;
        assignedCount: number;
        recoveredCount: number;
        expressCompany: string;
        expressCompanyName: string;
        expressNo: string;
        receiver: string;
        receiverPhone: string;
        address: string;
        applicant: string;
        createTime: string | null;
        waybillTime: string | null;
        shipTime: string | null;
        recoverTime: string | null;
        cancelTime: string | null;
      };
      recovered: number;
      remaining: number;
    };
  };
  "card.alterDelivery.confirm": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      id: number;
      code: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      kind: "no_card" | "with_card";
      state: "applied" | "cancelled" | "created" | "recovered" | "shipped";
      reason: string;
      cardCount: number;
      assignedCount: number;
      recoveredCount: number;
      expressCompany: string;
      expressCompanyName: string;
      expressNo: string;
      receiver: string;
      receiverPhone: string;
      address: string;
      applicant: string;
      createTime: string | null;
      waybillTime: string | null;
      shipTime: string | null;
      recoverTime: string | null;
      cancelTime: string | null;
    };
  };
  "card.alterDelivery.changeCard": {
    kind: "call";
    param: {
      /**
       * @minItems 1
       * @maxItems 50
       */
      iccids: string[];
      reason: string;
      receiver?: string;
      receiverPhone?: string;
      address?: string;
    };
    data: {
      id: number;
      code: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      kind: "no_card" | "with_card";
      state: "applied" | "cancelled" | "created" | "recovered" | "shipped";
      reason: string;
      cardCount: number;
      assignedCount: number;
      recoveredCount: number;
      expressCompany: string;
      expressCompanyName: string;
      expressNo: string;
      receiver: string;
      receiverPhone: string;
      address: string;
      applicant: string;
      createTime: string | null;
      waybillTime: string | null;
      shipTime: string | null;
      recoverTime: string | null;
      cancelTime: string | null;
    };
  };
  "card.alterDelivery.noCardChangeCard": {
    kind: "call";
    param: {
      /**
       * @minItems 1
       * @maxItems 50
       */
      iccids: string[];
      reason: string;
      receiver?: string;
      receiverPhone?: string;
      address?: string;
    };
    data: {
      id: number;
      code: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      kind: "no_card" | "with_card";
      state: "applied" | "cancelled" | "created" | "recovered" | "shipped";
      reason: string;
      cardCount: number;
      assignedCount: number;
      recoveredCount: number;
      expressCompany: string;
      expressCompanyName: string;
      expressNo: string;
      receiver: string;
      receiverPhone: string;
      address: string;
      applicant: string;
      createTime: string | null;
      waybillTime: string | null;
      shipTime: string | null;
      recoverTime: string | null;
      cancelTime: string | null;
    };
  };
  "card.alterDelivery.nextChangeCard": {
    kind: "call";
    param: {
      code: string;
      /**
       * @minItems 1
       * @maxItems 50
       */
      iccids: string[];
    };
    data: {
      id: number;
      code: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      kind: "no_card" | "with_card";
      state: "applied" | "cancelled" | "created" | "recovered" | "shipped";
      reason: string;
      cardCount: number;
      assignedCount: number;
      recoveredCount: number;
      expressCompany: string;
      expressCompanyName: string;
      expressNo: string;
      receiver: string;
      receiverPhone: string;
      address: string;
      applicant: string;
      createTime: string | null;
      waybillTime: string | null;
      shipTime: string | null;
      recoverTime: string | null;
      cancelTime: string | null;
    };
  };
  "card.renew.page": {
    kind: "page";
    param: {
      keyword?: string;
      state?: "unregistered" | "registered" | "confirmed" | "locked" | "";
      tenantCode?: string;
      expiry?: "expiring30" | "expiring60" | "expired" | "";
      orderCode?: string;
    };
    data: {
      records: {
        id: number;
        iccid: string;
        msisdn: string;
        tenantCode: string;
        tenantName: string;
        organizationName: string;
        operator: string;
        packageCode: string;
        packageName: string;
        cardState: "active" | "deactivated" | "in_stock" | "replaced" | "suspended" | "testing";
        expireTime: string | null;
        cardExpireTime: string | null;
        daysLeft: number | null;
        state: "confirmed" | "locked" | "registered" | "unregistered";
        years: number | null;
        unitPrice: number | null;
        amount: number | null;
        orderCode: string;
        registeredBy: string;
        registerTime: string | null;
        confirmedBy: string;
        confirmTime: string | null;
        lockedBy: string;
        lockTime: string | null;
        lockReason: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "card.renew.confirm": {
    kind: "call";
    param: {
      id: number;
    };
    data: {
      confirmed: number;
      orderCodes: string[];
    };
  };
  "card.renew.batchConfirm": {
    kind: "call";
    param: {
      /**
       * @minItems 1
       * @maxItems 1000
       */
      ids: number[];
    };
    data: {
      confirmed: number;
      orderCodes: string[];
    };
  };
  "card.renew.register": {
    kind: "call";
    param: {
      id: number;
      years: number;
    };
    data: {
      registered: number;
    };
  };
  "card.renew.batchRegister": {
    kind: "call";
    param: {
      /**
       * @minItems 1
       * @maxItems 1000
       */
      ids: number[];
      years: number;
    };
    data: {
      registered: number;
    };
  };
  "card.renew.onLock": {
    kind: "call";
    param: {
      id: number;
      reason: string;
    };
    data: {
      locked: number;
    };
  };
  "card.renew.batchOnLock": {
    kind: "call";
    param: {
      /**
       * @minItems 1
       * @maxItems 1000
       */
      ids: number[];
      reason: string;
    };
    data: {
      locked: number;
    };
  };
  "card.renew.export": {
    kind: "blob";
    param: {
      keyword?: string;
      state?: "unregistered" | "registered" | "confirmed" | "locked" | "";
      tenantCode?: string;
      expiry?: "expiring30" | "expiring60" | "expired" | "";
      orderCode?: string;
    };
    data: unknown;
  };
  "card.renewOrder.page": {
    kind: "page";
    param: {
      keyword?: string;
      state?: "pending_confirm" | "confirmed" | "";
      tenantCode?: string;
    };
    data: {
      records: {
        id: number;
        code: string;
        tenantCode: string;
        tenantName: string;
        state: "confirmed" | "pending_confirm";
        cardCount: number;
        amount: number | null;
        createdBy: string;
        createTime: string | null;
        confirmedBy: string;
        confirmTime: string | null;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "card.renewOrder.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      items: {
        id: number;
        iccid: string;
        msisdn: string;
        tenantCode: string;
        tenantName: string;
        organizationName: string;
        operator: string;
        packageCode: string;
        packageName: string;
        cardState: "active" | "deactivated" | "in_stock" | "replaced" | "suspended" | "testing";
        expireTime: string | null;
        cardExpireTime: string | null;
        daysLeft: number | null;
        state: "confirmed" | "locked" | "registered" | "unregistered";
        years: number | null;
        unitPrice: number | null;
        amount: number | null;
        orderCode: string;
        registeredBy: string;
        registerTime: string | null;
        confirmedBy: string;
        confirmTime: string | null;
        lockedBy: string;
        lockTime: string | null;
        lockReason: string;
      }[];
      id: number;
      code: string;
      tenantCode: string;
      tenantName: string;
      state: "confirmed" | "pending_confirm";
      cardCount: number;
      amount: number | null;
      createdBy: string;
      createTime: string | null;
      confirmedBy: string;
      confirmTime: string | null;
    };
  };
  "card.renewOrder.confirm": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      extendedCards: number;
      id: number;
      code: string;
      tenantCode: string;
      tenantName: string;
      state: "confirmed" | "pending_confirm";
      cardCount: number;
      amount: number | null;
      createdBy: string;
      createTime: string | null;
      confirmedBy: string;
      confirmTime: string | null;
    };
  };
  "card.renewOrder.export": {
    kind: "blob";
    param: {
      keyword?: string;
      state?: "pending_confirm" | "confirmed" | "";
      tenantCode?: string;
    };
    data: unknown;
  };
  "card.rechargeOrder.page": {
    kind: "page";
    param: {
      keyword?: string;
      state?: "pending_payment" | "paid" | "confirmed" | "cancelled" | "";
      paymentMethod?: "wechat" | "alipay" | "corporate" | "";
      tenantCode?: string;
    };
    data: {
      records: {
        id: number;
        code: string;
        tenantCode: string;
        tenantName: string;
        organizationCode: string;
        organizationName: string;
        state: "cancelled" | "confirmed" | "paid" | "pending_payment";
        paymentMethod: string;
        corporate: boolean;
        years: number;
        cardCount: number;
        amount: number | null;
        contractUrl: string;
        createdBy: string;
        createTime: string | null;
        payTime: string | null;
        confirmedBy: string;
        confirmTime: string | null;
        cancelTime: string | null;
        cancelReason: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "card.rechargeOrder.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      items: {
        iccid: string;
        msisdn: string;
        organizationName: string;
        packageName: string;
        unitPrice: number | null;
        amount: number | null;
        expireBefore: string | null;
        expireAfter: string | null;
      }[];
      id: number;
      code: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      state: "cancelled" | "confirmed" | "paid" | "pending_payment";
      paymentMethod: string;
      corporate: boolean;
      years: number;
      cardCount: number;
      amount: number | null;
      contractUrl: string;
      createdBy: string;
      createTime: string | null;
      payTime: string | null;
      confirmedBy: string;
      confirmTime: string | null;
      cancelTime: string | null;
      cancelReason: string;
    };
  };
  "card.rechargeOrder.cancel": {
    kind: "call";
    param: {
      code: string;
      reason?: string;
    };
    data: {
      id: number;
      code: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      state: "cancelled" | "confirmed" | "paid" | "pending_payment";
      paymentMethod: string;
      corporate: boolean;
      years: number;
      cardCount: number;
      amount: number | null;
      contractUrl: string;
      createdBy: string;
      createTime: string | null;
      payTime: string | null;
      confirmedBy: string;
      confirmTime: string | null;
      cancelTime: string | null;
      cancelReason: string;
    };
  };
  "card.rechargeOrder.export": {
    kind: "blob";
    param: {
      keyword?: string;
      state?: "pending_payment" | "paid" | "confirmed" | "cancelled" | "";
      paymentMethod?: "wechat" | "alipay" | "corporate" | "";
      tenantCode?: string;
    };
    data: unknown;
  };
  "card.recharge.yearList": {
    kind: "call";
    param: Record<string, never>;
    data: {
      value: number;
      label: string;
    }[];
  };
  "card.recharge.projectList": {
    kind: "call";
    param: Record<string, never>;
    data: {
      organizationCode: string;
      organizationName: string;
      tenantName: string;
      label: string;
      cardCount: number;
      expiringCount: number;
    }[];
  };
  "card.recharge.projectCard": {
    kind: "call";
    param: {
      organizationCode: string;
      keyword?: string;
    };
    data: {
      iccid: string;
      msisdn: string;
      label: string;
      organizationName: string;
      packageName: string;
      expireTime: string | null;
    }[];
  };
  "card.recharge.allCard": {
    kind: "call";
    param: {
      keyword?: string;
      expiry?: "expiring30" | "expiring60" | "expired" | "";
    };
    data: {
      iccid: string;
      msisdn: string;
      label: string;
      organizationName: string;
      packageName: string;
      expireTime: string | null;
    }[];
  };
  "card.recharge.calculateAmount": {
    kind: "call";
    param: {
      /**
       * @minItems 1
       * @maxItems 5000
       */
      iccids: string[];
      years: number;
    };
    data: {
      tenantCode: string;
      cardCount: number;
      years: number;
      amount: number;
      lines: {
        packageCode: string;
        packageName: string;
        unitPrice: number;
        cardCount: number;
        amount: number;
      }[];
    };
  };
  "card.recharge.contractUpload": {
    kind: "call";
    param: {
      code: string;
      contractUrl: string;
    };
    data: {
      id: number;
      code: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      state: "cancelled" | "confirmed" | "paid" | "pending_payment";
      paymentMethod: string;
      corporate: boolean;
      years: number;
      cardCount: number;
      amount: number | null;
      contractUrl: string;
      createdBy: string;
      createTime: string | null;
      payTime: string | null;
      confirmedBy: string;
      confirmTime: string | null;
      cancelTime: string | null;
      cancelReason: string;
    };
  };
  "card.recharge.refresh": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      id: number;
      code: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      state: "cancelled" | "confirmed" | "paid" | "pending_payment";
      paymentMethod: string;
      corporate: boolean;
      years: number;
      cardCount: number;
      amount: number | null;
      contractUrl: string;
      createdBy: string;
      createTime: string | null;
      payTime: string | null;
      confirmedBy: string;
      confirmTime: string | null;
      cancelTime: string | null;
      cancelReason: string;
    };
  };
  "card.recharge.generateConfirmation": {
    kind: "blob";
    param: {
      code: string;
    };
    data: unknown;
  };
  "card.recharge.standardYears": {
    kind: "call";
    param: {
      packageCode: string;
      tenantCode?: string;
    };
    data: {
      packageCode: string;
      standardCode: string;
      standardName: string;
      unitPrice: number;
      years: number[];
    };
  };
  "card.customerRecharge.page": {
    kind: "page";
    param: {
      keyword?: string;
      operator?: "cmcc" | "cucc" | "ctcc" | "cbn" | "";
      organizationCode?: string;
      expiry?: "expiring30" | "expiring60" | "expired" | "";
      rechargeState?: "none" | "pending" | "";
    };
    data: {
      records: {
        rechargeState: string;
        pendingOrderCode: string;
        lastRechargeTime: string | null;
        id: number;
        iccid: string;
        msisdn: string;
        imsi: string;
        operator: string;
        supplierName: string;
        customCode: string;
        customName: string;
        packageCode: string;
        packageName: string;
        network: string;
        flowMb: number;
        state: "active" | "deactivated" | "in_stock" | "replaced" | "suspended" | "testing";
        tenantCode: string;
        tenantName: string;
        organizationCode: string;
        organizationName: string;
        orderCode: string;
        deliveryCode: string;
        alterCode: string;
        inReplacement: boolean;
        replaceable: boolean;
        deviceCode: string;
        deviceName: string;
        batchCode: string;
        testUntil: string | null;
        activateTime: string | null;
        expireTime: string | null;
        daysLeft: number | null;
        monthUsedMb: number;
        remainingMb: number;
        usagePercent: number;
        totalUsedMb: number;
        lastSessionTime: string | null;
        ceaseReason: string;
        suspendTime: string | null;
        deactivateTime: string | null;
        replacedBy: string;
        syncTime: string | null;
        remark: string;
        createTime: string | null;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "card.customerRecharge.detail": {
    kind: "call";
    param: {
      iccid: string;
    };
    data: {
      recharges: {
        code: string;
        state: string;
        paymentMethod: string;
        years: number;
        amount: number | null;
        createTime: string | null;
        expireBefore: string | null;
        expireAfter: string | null;
      }[];
      id: number;
      iccid: string;
      msisdn: string;
      imsi: string;
      operator: string;
      supplierName: string;
      customCode: string;
      customName: string;
      packageCode: string;
      packageName: string;
      network: string;
      flowMb: number;
      state: "active" | "deactivated" | "in_stock" | "replaced" | "suspended" | "testing";
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      orderCode: string;
      deliveryCode: string;
      alterCode: string;
      inReplacement: boolean;
      replaceable: boolean;
      deviceCode: string;
      deviceName: string;
      batchCode: string;
      testUntil: string | null;
      activateTime: string | null;
      expireTime: string | null;
      daysLeft: number | null;
      monthUsedMb: number;
      remainingMb: number;
      usagePercent: number;
      totalUsedMb: number;
      lastSessionTime: string | null;
      ceaseReason: string;
      suspendTime: string | null;
      deactivateTime: string | null;
      replacedBy: string;
      syncTime: string | null;
      remark: string;
      createTime: string | null;
      deviceImei: string;
      deviceSignal: number | null;
    };
  };
  "card.customerRecharge.checkAmount": {
    kind: "call";
    param: {
      /**
       * @minItems 1
       * @maxItems 5000
       */
      iccids: string[];
      years: number;
      amount: number;
    };
    data:
      | {
          matched: boolean;
          amount: null;
          message: string;
        }
      | {
          matched: boolean;
          amount: number;
          message: string;
        };
  };
  "card.customerRecharge.detailNum": {
    kind: "call";
    param: {
      iccid: string;
    };
    data: {
      iccid: string;
      rechargeCount: number;
      confirmedCount: number;
      pendingCount: number;
      totalYears: number;
      totalAmount: number | null;
    };
  };
  "card.customerRecharge.isHaveOrder": {
    kind: "call";
    param: Record<string, never>;
    data: {
      haveOrder: boolean;
      code: string;
      amount: number | null;
      state: string;
    };
  };
  "card.customerRecharge.statisticsNum": {
    kind: "call";
    param: Record<string, never>;
    data: {
      totalCards: number;
      expiring30: number;
      expiring60: number;
      expired: number;
      pendingPayment: number;
      awaitingArrival: number;
      rechargedThisYear: number | null;
    };
  };
  "card.customerRecharge.paymentAmount": {
    kind: "call";
    param: {
      /**
       * @minItems 1
       * @maxItems 5000
       */
      iccids: string[];
      years: number;
      amount?: number;
      paymentMethod?: "wechat" | "alipay";
    };
    data: {
      id: number;
      code: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      state: "cancelled" | "confirmed" | "paid" | "pending_payment";
      paymentMethod: string;
      corporate: boolean;
      years: number;
      cardCount: number;
      amount: number | null;
      contractUrl: string;
      createdBy: string;
      createTime: string | null;
      payTime: string | null;
      confirmedBy: string;
      confirmTime: string | null;
      cancelTime: string | null;
      cancelReason: string;
      calculation: {
        cardCount: number;
        years: number;
        amount: number;
        lines: {
          packageCode: string;
          packageName: string;
          unitPrice: number;
          cardCount: number;
          amount: number;
        }[];
        cards: {
          iccid: string;
          packageCode: string;
          unitPrice: number;
          amount: number;
        }[];
      };
    };
  };
  "card.customerRecharge.corporatePaymentAmount": {
    kind: "call";
    param: {
      /**
       * @minItems 1
       * @maxItems 5000
       */
      iccids: string[];
      years: number;
      amount?: number;
    };
    data: {
      id: number;
      code: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      state: "cancelled" | "confirmed" | "paid" | "pending_payment";
      paymentMethod: string;
      corporate: boolean;
      years: number;
      cardCount: number;
      amount: number | null;
      contractUrl: string;
      createdBy: string;
      createTime: string | null;
      payTime: string | null;
      confirmedBy: string;
      confirmTime: string | null;
      cancelTime: string | null;
      cancelReason: string;
      calculation: {
        cardCount: number;
        years: number;
        amount: number;
        lines: {
          packageCode: string;
          packageName: string;
          unitPrice: number;
          cardCount: number;
          amount: number;
        }[];
        cards: {
          iccid: string;
          packageCode: string;
          unitPrice: number;
          amount: number;
        }[];
      };
    };
  };
  "card.customerRecharge.cancel": {
    kind: "call";
    param: {
      code: string;
      reason?: string;
    };
    data: {
      id: number;
      code: string;
      tenantCode: string;
      tenantName: string;
      organizationCode: string;
      organizationName: string;
      state: "cancelled" | "confirmed" | "paid" | "pending_payment";
      paymentMethod: string;
      corporate: boolean;
      years: number;
      cardCount: number;
      amount: number | null;
      contractUrl: string;
      createdBy: string;
      createTime: string | null;
      payTime: string | null;
      confirmedBy: string;
      confirmTime: string | null;
      cancelTime: string | null;
      cancelReason: string;
    };
  };
  "card.customerRecharge.isBulletBox": {
    kind: "call";
    param: Record<string, never>;
    data: "0" | "1";
  };
  "card.customerRecharge.export": {
    kind: "blob";
    param: {
      keyword?: string;
      operator?: "cmcc" | "cucc" | "ctcc" | "cbn" | "";
      organizationCode?: string;
      expiry?: "expiring30" | "expiring60" | "expired" | "";
      rechargeState?: "none" | "pending" | "";
    };
    data: unknown;
  };
  "card.flowPackage.usedList": {
    kind: "call";
    param: {
      iccid: string;
    };
    data: {
      month: string;
      flowMb: number;
      usedMb: number;
      usagePercent: number;
    }[];
  };
  "card.flowPackage.check": {
    kind: "call";
    param: {
      iccid: string;
    };
    data: {
      iccid: string;
      flowMb: number;
      monthUsedMb: number;
      remainingMb: number;
      usagePercent: number;
      level: string;
      message: string;
    };
  };
  "card.ceaseReason.list": {
    kind: "call";
    param: Record<string, never>;
    data: {
      value: string;
      label: string;
    }[];
  };
  "card.chargeStandard.get": {
    kind: "call";
    param: {
      tenantCode?: string;
      operator?: "cmcc" | "cucc" | "ctcc" | "cbn" | "";
    };
    data: {
      label: string;
      id: number;
      code: string;
      name: string;
      operator: string;
      network: string;
      flowMb: number;
      unitPrice: number | null;
      years: number[];
      yearsText: string;
      tenantCode: string;
      tenantName: string;
      enabled: boolean;
      remark: string;
      cardCount: number;
      createTime: string | null;
      updateTime: string | null;
    }[];
  };
  "card.chargeStandard.page": {
    kind: "page";
    param: {
      keyword?: string;
      operator?: "cmcc" | "cucc" | "ctcc" | "cbn" | "";
      network?: "nb" | "cat1" | "4g" | "5g" | "";
      tenantCode?: string;
      enabled?: "true" | "false" | "";
    };
    data: {
      records: {
        id: number;
        code: string;
        name: string;
        operator: string;
        network: string;
        flowMb: number;
        unitPrice: number | null;
        years: number[];
        yearsText: string;
        tenantCode: string;
        tenantName: string;
        enabled: boolean;
        remark: string;
        cardCount: number;
        createTime: string | null;
        updateTime: string | null;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "card.chargeStandard.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      id: number;
      code: string;
      name: string;
      operator: string;
      network: string;
      flowMb: number;
      unitPrice: number | null;
      years: number[];
      yearsText: string;
      tenantCode: string;
      tenantName: string;
      enabled: boolean;
      remark: string;
      cardCount: number;
      createTime: string | null;
      updateTime: string | null;
    };
  };
  "card.chargeStandard.insert": {
    kind: "call";
    param: {
      standard: {
        code: string;
        name: string;
        operator: "cmcc" | "cucc" | "ctcc" | "cbn";
        network: "nb" | "cat1" | "4g" | "5g";
        flowMb: number;
        unitPrice: number;
        /**
         * @minItems 1
         * @maxItems 10
         */
        years: number[];
        tenantCode?: string;
        enabled?: boolean;
        remark?: string;
      };
    };
    data: {
      id: number;
      code: string;
      name: string;
      operator: string;
      network: string;
      flowMb: number;
      unitPrice: number | null;
      years: number[];
      yearsText: string;
      tenantCode: string;
      tenantName: string;
      enabled: boolean;
      remark: string;
      cardCount: number;
      createTime: string | null;
      updateTime: string | null;
    };
  };
  "card.chargeStandard.modify": {
    kind: "call";
    param: {
      code: string;
      standard: {
        code: string;
        name: string;
        operator: "cmcc" | "cucc" | "ctcc" | "cbn";
        network: "nb" | "cat1" | "4g" | "5g";
        flowMb: number;
        unitPrice: number;
        /**
         * @minItems 1
         * @maxItems 10
         */
        years: number[];
        tenantCode?: string;
        enabled?: boolean;
        remark?: string;
      };
    };
    data: {
      id: number;
      code: string;
      name: string;
      operator: string;
      network: string;
      flowMb: number;
      unitPrice: number | null;
      years: number[];
      yearsText: string;
      tenantCode: string;
      tenantName: string;
      enabled: boolean;
      remark: string;
      cardCount: number;
      createTime: string | null;
      updateTime: string | null;
    };
  };
  "card.chargeStandard.delete": {
    kind: "call";
    param: {
      code: string;
    };
    data: null;
  };
  "card.tenantCard.save": {
    kind: "call";
    param: {
      /**
       * @minItems 1
       * @maxItems 5000
       */
      iccids: string[];
      tenantCode: string;
      organizationCode?: string;
    };
    data: {
      assigned: number;
      tenantCode: string;
      organizationCode: string;
    };
  };
  "card.customCard.page": {
    kind: "page";
    param: {
      keyword?: string;
      operator?: "cmcc" | "cucc" | "ctcc" | "cbn" | "";
      formFactor?: "plug" | "mp1" | "mp2" | "esim" | "";
      grade?: "consumer" | "industrial" | "automotive" | "";
    };
    data: {
      records: {
        id: number;
        code: string;
        name: string;
        operator: string;
        formFactor: string;
        grade: string;
        supplierCode: string;
        supplierName: string;
        packageCode: string;
        packageName: string;
        unitCost: number | null;
        minOrder: number;
        leadDays: number;
        enabled: boolean;
        remark: string;
        stockCount: number;
        cardCount: number;
        createTime: string | null;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "card.customCard.list": {
    kind: "call";
    param: Record<string, never>;
    data: {
      label: string;
      id: number;
      code: string;
      name: string;
      operator: string;
      formFactor: string;
      grade: string;
      supplierCode: string;
      supplierName: string;
      packageCode: string;
      packageName: string;
      unitCost: number | null;
      minOrder: number;
      leadDays: number;
      enabled: boolean;
      remark: string;
      stockCount: number;
      cardCount: number;
      createTime: string | null;
    }[];
  };
  "card.customCard.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      id: number;
      code: string;
      name: string;
      operator: string;
      formFactor: string;
      grade: string;
      supplierCode: string;
      supplierName: string;
      packageCode: string;
      packageName: string;
      unitCost: number | null;
      minOrder: number;
      leadDays: number;
      enabled: boolean;
      remark: string;
      stockCount: number;
      cardCount: number;
      createTime: string | null;
    };
  };
  "card.customCard.insert": {
    kind: "call";
    param: {
      card: {
        code: string;
        name: string;
        operator: "cmcc" | "cucc" | "ctcc" | "cbn";
        formFactor: "plug" | "mp1" | "mp2" | "esim";
        grade: "consumer" | "industrial" | "automotive";
        supplierCode: string;
        packageCode: string;
        unitCost: number;
        minOrder?: number;
        leadDays?: number;
        enabled?: boolean;
        remark?: string;
      };
    };
    data: {
      id: number;
      code: string;
      name: string;
      operator: string;
      formFactor: string;
      grade: string;
      supplierCode: string;
      supplierName: string;
      packageCode: string;
      packageName: string;
      unitCost: number | null;
      minOrder: number;
      leadDays: number;
      enabled: boolean;
      remark: string;
      stockCount: number;
      cardCount: number;
      createTime: string | null;
    };
  };
  "card.customCard.modify": {
    kind: "call";
    param: {
      code: string;
      card: {
        code: string;
        name: string;
        operator: "cmcc" | "cucc" | "ctcc" | "cbn";
        formFactor: "plug" | "mp1" | "mp2" | "esim";
        grade: "consumer" | "industrial" | "automotive";
        supplierCode: string;
        packageCode: string;
        unitCost: number;
        minOrder?: number;
        leadDays?: number;
        enabled?: boolean;
        remark?: string;
      };
    };
    data: {
      id: number;
      code: string;
      name: string;
      operator: string;
      formFactor: string;
      grade: string;
      supplierCode: string;
      supplierName: string;
      packageCode: string;
      packageName: string;
      unitCost: number | null;
      minOrder: number;
      leadDays: number;
      enabled: boolean;
      remark: string;
      stockCount: number;
      cardCount: number;
      createTime: string | null;
    };
  };
  "card.customCard.delete": {
    kind: "call";
    param: {
      code: string;
    };
    data: null;
  };
  "card.warehousing.page": {
    kind: "page";
    param: {
      keyword?: string;
      customCode?: string;
      operator?: "cmcc" | "cucc" | "ctcc" | "cbn" | "";
      supplierCode?: string;
    };
    data: {
      records: {
        id: number;
        code: string;
        customCode: string;
        customName: string;
        supplierCode: string;
        supplierName: string;
        operator: string;
        quantity: number;
        inStock: number;
        outbound: number;
        iccidFirst: string;
        iccidLast: string;
        createdBy: string;
        remark: string;
        createTime: string | null;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "card.warehousing.insert": {
    kind: "call";
    param: {
      customCode: string;
      iccidStart: string;
      quantity: number;
      msisdnStart?: string;
      remark?: string;
    };
    data: {
      id: number;
      code: string;
      customCode: string;
      customName: string;
      supplierCode: string;
      supplierName: string;
      operator: string;
      quantity: number;
      inStock: number;
      outbound: number;
      iccidFirst: string;
      iccidLast: string;
      createdBy: string;
      remark: string;
      createTime: string | null;
    };
  };
  "card.warehousing.import": {
    kind: "call";
    param: {
      customCode: string;
      iccidText?: string;
      fileUrl?: string;
      remark?: string;
    };
    data: {
      id: number;
      code: string;
      customCode: string;
      customName: string;
      supplierCode: string;
      supplierName: string;
      operator: string;
      quantity: number;
      inStock: number;
      outbound: number;
      iccidFirst: string;
      iccidLast: string;
      createdBy: string;
      remark: string;
      createTime: string | null;
    };
  };
  "card.warehousing.export": {
    kind: "blob";
    param: {
      keyword?: string;
      customCode?: string;
      operator?: "cmcc" | "cucc" | "ctcc" | "cbn" | "";
      supplierCode?: string;
    };
    data: unknown;
  };
  "card.dashboard.statistics": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
    };
    data: {
      totalCards: number;
      inStock: string | number;
      testing: string | number;
      active: string | number;
      suspended: string | number;
      deactivated: string | number;
      replaced: string | number;
      expiring30: string | number;
      tenants: string | number;
      monthUsedGb: number;
      activeRate: number;
    };
  };
  "card.dashboard.flowMonitor": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
    };
    data: {
      day: string;
      usedGb: number;
      activeCards: number;
    }[];
  };
  "card.dashboard.flowTop": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
    };
    data: {
      rank: number;
      iccid: string;
      msisdn: string;
      tenantName: string;
      deviceCode: string;
      monthUsedMb: number;
      flowMb: number;
      usagePercent: number;
    }[];
  };
  "card.dashboard.deliveryStatistics": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
    };
    data: {
      shippedDeliveries: number;
      shippedCards: number;
      pendingDeliveries: number;
      pendingCards: number;
      awaitingConfirmation: number;
      revokedDeliveries: number;
      ordersAwaitingDelivery: number;
      cardsAwaitingDelivery: number;
    };
  };
  "card.dashboard.deliveryBar": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
    };
    data: {
      month: string;
      deliveries: number;
      cards: number;
    }[];
  };
  "card.dashboard.purchasePie": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
    };
    data: {
      operatorName: string;
      cards: number;
    }[];
  };
  "card.dashboard.purchaseList": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
    };
    data: {
      supplierName: string;
      batches: number;
      cards: number;
      cost: number | null;
    }[];
  };
  "card.dashboard.purchaseBar": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
    };
    data: {
      month: string;
      cards: number;
      batches: number;
    }[];
  };
  "card.dashboard.revenueStatistics": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
    };
    data: {
      month: string;
      orderAmount: number;
      rechargeAmount: number;
      renewAmount: number;
      totalAmount: number;
    }[];
  };
  "card.dashboard.completeRate": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
    };
    data: {
      total: number;
      completed: number;
      confirmed: number;
      rate: number;
    };
  };
  "card.dashboard.tenantLevel": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
    };
    data: {
      tenantCode: string;
      tenantName: string;
      cards: number;
      activeCards: number;
      level: string;
      levelName: string;
    }[];
  };
  "card.dashboard.unreceivedSalesRank": {
    kind: "call";
    param: {
      startTime?: string;
      endTime?: string;
    };
    data: {
      rank: number;
      salesperson: string;
      orders: number;
      amount: number | null;
      receivedAmount: number | null;
      unreceivedAmount: number;
    }[];
  };
  "maps.place.search": {
    kind: "get";
    param: {
      keyword: string;
      city?: string;
    };
    data: {
      name: string;
      kind: "city" | "district" | "poi" | "province" | "road" | "town";
      province: string;
      city: string;
      district: string;
      address: string;
      longitude: number;
      latitude: number;
    }[];
  };
  "maps.geocode.reverse": {
    kind: "get";
    param: {
      longitude: string;
      latitude: string;
    };
    data: {
      longitude: number;
      latitude: number;
      formattedAddress: string;
      province: string;
      city: string;
      district: string;
      township: string;
      nearby: {
        name: string;
        kind: "city" | "district" | "poi" | "province" | "road" | "town";
        distance: number;
      }[];
    };
  };
  "repair.order.page": {
    kind: "page";
    param: {
      keyword?: string;
      state?:
        | ("created" | "assigned" | "accepted" | "in_progress" | "completed" | "audited" | "closed" | "rejected")
        | string
        | null;
      priority?: ("urgent" | "high" | "normal" | "low") | string | null;
      organizationCode?: string;
      assigneeId?: number | null;
      overdue?: ("1" | "0") | string | null;
      /**
       * @minItems 2
       * @maxItems 2
       */
      createTime?: string[];
      /**
       * @minItems 2
       * @maxItems 2
       */
      planTime?: string[];
      source?: ("manual" | "alarm" | "report" | "patrol") | string | null;
      faultType?:
        | ("no_data" | "communication" | "metering" | "battery" | "valve" | "sensor" | "damage" | "leakage" | "other")
        | string
        | null;
      batchCode?: string;
    };
    data: {
      records: {
        id: number;
        code: string;
        type: "repair";
        title: string;
        description: string;
        state: string;
        source: string;
        sourceCode: string;
        priority: string;
        faultType: string;
        maintenanceType: string;
        tenantCode: string;
        organizationCode: string;
        organizationName: string;
        deviceCode: string;
        deviceName: string;
        productName: string;
        address: string;
        contactName: string;
        contactPhone: string;
        batchCode: string;
        creatorName: string;
        assigneeId: number | null;
        assigneeName: string;
        assigneePhone: string;
        planStartTime: (
          | {
              [k: string]: unknown | undefined;
            }
          | ""
        ) &
          string;
        deadline: (
          | {
              [k: string]: unknown | undefined;
            }
          | ""
        ) &
          string;
        planTime: string[] | null;
        overdue: boolean;
        assignTime: (
          | {
              [k: string]: unknown | undefined;
            }
          | ""
        ) &
          string;
        acceptTime: (
          | {
              [k: string]: unknown | undefined;
            }
          | ""
        ) &
          string;
        startTime: (
          | {
              [k: string]: unknown | undefined;
            }
          | ""
        ) &
          string;
        completeTime: (
          | {
              [k: string]: unknown | undefined;
            }
          | ""
        ) &
          string;
        auditTime: (
          | {
              [k: string]: unknown | undefined;
            }
          | ""
        ) &
          string;
        closeTime: (
          | {
              [k: string]: unknown | undefined;
            }
          | ""
        ) &
          string;
        result: string;
        faultCause: string;
        cost: number | null;
        auditState: string;
        auditOpinion: string;
        rejectReason: string;
        closeReason: string;
        formTemplateId: number | null;
        formTemplateVersion: number | null;
        formData: {} | null;
        createTime: (
          | {
              [k: string]: unknown | undefined;
            }
          | ""
        ) &
          string;
        updateTime: (
          | {
              [k: string]: unknown | undefined;
            }
          | ""
        ) &
          string;
        canAssign: boolean;
        canAccept: boolean;
        canStart: boolean;
        canComplete: boolean;
        canAudit: boolean;
        canReject: boolean;
        canRefuse: boolean;
        canClose: boolean;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "repair.order.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      deviceOnlineState: string;
      deviceHealthState: string;
      deviceAddress: string;
      deviceLastSeen: string;
      history: {
        id: number;
        action: string;
        fromState: string;
        toState: string;
        operatorName: string;
        remark: string;
        time: string;
      }[];
      id: number;
      code: string;
      type: "construction" | "exploration" | "maintenance" | "repair";
      title: string;
      description: string;
      state: string;
      source: string;
      sourceCode: string;
      priority: string;
      faultType: string;
      maintenanceType: string;
      tenantCode: string;
      organizationCode: string;
      organizationName: string;
      deviceCode: string;
      deviceName: string;
      productName: string;
      address: string;
      contactName: string;
      contactPhone: string;
      batchCode: string;
      creatorName: string;
      assigneeId: number | null;
      assigneeName: string;
      assigneePhone: string;
      planStartTime: string;
      deadline: string;
      planTime: string[] | null;
      overdue: boolean;
      assignTime: string;
      acceptTime: string;
      startTime: string;
      completeTime: string;
      auditTime: string;
      closeTime: string;
      result: string;
      faultCause: string;
      cost: number | null;
      auditState: string;
      auditOpinion: string;
      rejectReason: string;
      closeReason: string;
      formTemplateId: number | null;
      formTemplateVersion: number | null;
      formData: {
        [k: string]: unknown | undefined;
      } | null;
      createTime: string;
      updateTime: string;
      canAssign: boolean;
      canAccept: boolean;
      canStart: boolean;
      canComplete: boolean;
      canAudit: boolean;
      canReject: boolean;
      canRefuse: boolean;
      canClose: boolean;
    };
  };
  "repair.order.insert": {
    kind: "call";
    param: {
      order: {
        title: string;
        deviceCode?: string | null;
        organizationCode?: string | null;
        faultType:
          "no_data" | "communication" | "metering" | "battery" | "valve" | "sensor" | "damage" | "leakage" | "other";
        priority?: ("urgent" | "high" | "normal" | "low") | string | null;
        description?: string;
        address?: string;
        contactName?: string;
        contactPhone?: string | null;
        deadline?: string | null;
        assigneeId?: number | null;
      };
    };
    data: {
      id: number;
      code: string;
    };
  };
  "repair.order.export": {
    kind: "blob";
    param: {
      keyword?: string;
      state?:
        | ("created" | "assigned" | "accepted" | "in_progress" | "completed" | "audited" | "closed" | "rejected")
        | string
        | null;
      priority?: ("urgent" | "high" | "normal" | "low") | string | null;
      organizationCode?: string;
      assigneeId?: number | null;
      overdue?: ("1" | "0") | string | null;
      /**
       * @minItems 2
       * @maxItems 2
       */
      createTime?: string[];
      /**
       * @minItems 2
       * @maxItems 2
       */
      planTime?: string[];
      source?: ("manual" | "alarm" | "report" | "patrol") | string | null;
      faultType?:
        | ("no_data" | "communication" | "metering" | "battery" | "valve" | "sensor" | "damage" | "leakage" | "other")
        | string
        | null;
      batchCode?: string;
    };
    data: unknown;
  };
  "repair.order.assign": {
    kind: "call";
    param: {
      code: string;
      assigneeId: number;
      deadline?: string | null;
      remark?: string;
    };
    data: null;
  };
  "repair.order.accept": {
    kind: "call";
    param: {
      code: string;
    };
    data: null;
  };
  "repair.order.start": {
    kind: "call";
    param: {
      code: string;
    };
    data: null;
  };
  "repair.order.complete": {
    kind: "call";
    param: {
      code: string;
      result: string;
      faultCause?: string;
      cost?: number | null;
    };
    data: null;
  };
  "repair.order.audit": {
    kind: "call";
    param: {
      code: string;
      opinion?: string;
    };
    data: null;
  };
  "repair.order.close": {
    kind: "call";
    param: {
      code: string;
      reason: string;
    };
    data: null;
  };
  "repair.order.reject": {
    kind: "call";
    param: {
      code: string;
      reason: string;
    };
    data: null;
  };
  "repair.report.page": {
    kind: "page";
    param: {
      keyword?: string;
      state?: ("pending" | "converted") | string | null;
      faultType?:
        | ("no_data" | "communication" | "metering" | "battery" | "valve" | "sensor" | "damage" | "leakage" | "other")
        | string
        | null;
      organizationCode?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      createTime?: string[];
    };
    data: {
      records: {
        id: number;
        code: string;
        deviceCode: string;
        deviceName: string;
        faultType: string;
        description: string;
        contactPhone: string;
        reporterName: string;
        organizationCode: string;
        organizationName: string;
        state: string;
        orderCode: string;
        orderState: string;
        convertTime: string;
        createTime: string;
        canConvert: boolean;
        canDelete: boolean;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "repair.report.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      id: number;
      code: string;
      deviceCode: string;
      deviceName: string;
      faultType: string;
      description: string;
      contactPhone: string;
      reporterName: string;
      organizationCode: string;
      organizationName: string;
      state: string;
      orderCode: string;
      orderState: string;
      convertTime: string;
      createTime: string;
      canConvert: boolean;
      canDelete: boolean;
    };
  };
  "repair.report.insert": {
    kind: "call";
    param: {
      report: {
        deviceCode: string;
        faultType:
          "no_data" | "communication" | "metering" | "battery" | "valve" | "sensor" | "damage" | "leakage" | "other";
        description: string;
        contactPhone?: string | null;
      };
    };
    data: {
      code: string;
    };
  };
  "repair.report.delete": {
    kind: "call";
    param: {
      code: string;
    };
    data: null;
  };
  "repair.report.toOrder": {
    kind: "call";
    param: {
      code: string;
      assigneeId?: number | null;
      priority?: ("urgent" | "high" | "normal" | "low") | string | null;
      deadline?: string | null;
    };
    data: {
      orderCode: string;
    };
  };
  "repair.batch.page": {
    kind: "page";
    param: {
      keyword?: string;
      faultType?:
        | ("no_data" | "communication" | "metering" | "battery" | "valve" | "sensor" | "damage" | "leakage" | "other")
        | string
        | null;
      priority?: ("urgent" | "high" | "normal" | "low") | string | null;
      organizationCode?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      createTime?: string[];
    };
    data: {
      records: {
        id: number;
        code: string;
        name: string;
        faultType: string;
        priority: string;
        description: string;
        organizationCode: string;
        organizationName: string;
        creatorName: string;
        assigneeName: string;
        deadline: string;
        createTime: string;
        deviceCount: number;
        pendingCount: number;
        processingCount: number;
        doneCount: number;
        progress: number;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "repair.batch.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      stateCounts: {
        state: string;
        count: number;
      }[];
      id: number;
      code: string;
      name: string;
      faultType: string;
      priority: string;
      description: string;
      organizationCode: string;
      organizationName: string;
      creatorName: string;
      assigneeName: string;
      deadline: string;
      createTime: string;
      deviceCount: number;
      pendingCount: number;
      processingCount: number;
      doneCount: number;
      progress: number;
    };
  };
  "repair.batch.insert": {
    kind: "call";
    param: {
      batch: {
        name: string;
        faultType:
          "no_data" | "communication" | "metering" | "battery" | "valve" | "sensor" | "damage" | "leakage" | "other";
        priority?: ("urgent" | "high" | "normal" | "low") | string | null;
        /**
         * @minItems 1
         * @maxItems 200
         */
        deviceCodes: string[];
        assigneeId?: number | null;
        deadline?: string | null;
        description?: string;
      };
    };
    data: {
      code: string;
      orderCount: number;
    };
  };
  "repair.batch.export": {
    kind: "blob";
    param: {
      keyword?: string;
      faultType?:
        | ("no_data" | "communication" | "metering" | "battery" | "valve" | "sensor" | "damage" | "leakage" | "other")
        | string
        | null;
      priority?: ("urgent" | "high" | "normal" | "low") | string | null;
      organizationCode?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      createTime?: string[];
    };
    data: unknown;
  };
  "repair.batch.device.page": {
    kind: "page";
    param: {
      keyword?: string;
      state?:
        | ("created" | "assigned" | "accepted" | "in_progress" | "completed" | "audited" | "closed" | "rejected")
        | string
        | null;
      priority?: ("urgent" | "high" | "normal" | "low") | string | null;
      organizationCode?: string;
      assigneeId?: number | null;
      overdue?: ("1" | "0") | string | null;
      /**
       * @minItems 2
       * @maxItems 2
       */
      createTime?: string[];
      /**
       * @minItems 2
       * @maxItems 2
       */
      planTime?: string[];
      batchCode: string;
    };
    data: {
      records: {
        id: number;
        code: string;
        type: "construction" | "exploration" | "maintenance" | "repair";
        title: string;
        description: string;
        state: string;
        source: string;
        sourceCode: string;
        priority: string;
        faultType: string;
        maintenanceType: string;
        tenantCode: string;
        organizationCode: string;
        organizationName: string;
        deviceCode: string;
        deviceName: string;
        productName: string;
        address: string;
        contactName: string;
        contactPhone: string;
        batchCode: string;
        creatorName: string;
        assigneeId: number | null;
        assigneeName: string;
        assigneePhone: string;
        planStartTime: string;
        deadline: string;
        planTime: string[] | null;
        overdue: boolean;
        assignTime: string;
        acceptTime: string;
        startTime: string;
        completeTime: string;
        auditTime: string;
        closeTime: string;
        result: string;
        faultCause: string;
        cost: number | null;
        auditState: string;
        auditOpinion: string;
        rejectReason: string;
        closeReason: string;
        formTemplateId: number | null;
        formTemplateVersion: number | null;
        formData: {
          [k: string]: unknown | undefined;
        } | null;
        createTime: string;
        updateTime: string;
        canAssign: boolean;
        canAccept: boolean;
        canStart: boolean;
        canComplete: boolean;
        canAudit: boolean;
        canReject: boolean;
        canRefuse: boolean;
        canClose: boolean;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "repair.collect.page": {
    kind: "page";
    param: {
      dimension?: ("organization" | "assignee" | "faultType" | "month") | string | null;
      organizationCode?: string;
      faultType?:
        | ("no_data" | "communication" | "metering" | "battery" | "valve" | "sensor" | "damage" | "leakage" | "other")
        | string
        | null;
      /**
       * @minItems 2
       * @maxItems 2
       */
      createTime?: string[];
    };
    data: {
      records: {
        key: string;
        name: string;
        total: number;
        pending: number;
        processing: number;
        completed: number;
        closed: number;
        overdue: number;
        completionRate: number;
        avgDuration: number | null;
        avgHours: number | null;
        totalCost: number;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "repair.collect.export": {
    kind: "blob";
    param: {
      dimension?: ("organization" | "assignee" | "faultType" | "month") | string | null;
      organizationCode?: string;
      faultType?:
        | ("no_data" | "communication" | "metering" | "battery" | "valve" | "sensor" | "damage" | "leakage" | "other")
        | string
        | null;
      /**
       * @minItems 2
       * @maxItems 2
       */
      createTime?: string[];
    };
    data: unknown;
  };
  "patrol.task.page": {
    kind: "page";
    param: {
      keyword?: string;
      state?: ("pending" | "in_progress" | "completed" | "overdue") | string | null;
      organizationCode?: string;
      assigneeId?: number | null;
      /**
       * @minItems 2
       * @maxItems 2
       */
      planTime?: string[];
    };
    data: {
      records: {
        id: number;
        code: string;
        name: string;
        organizationCode: string;
        organizationName: string;
        assigneeId: number | null;
        assigneeName: string;
        creatorName: string;
        planStartTime: string;
        planEndTime: string;
        planTime: string[];
        state: string;
        content: string;
        deviceCount: number;
        checkedCount: number;
        abnormalCount: number;
        progress: number;
        startTime: string;
        completeTime: string;
        createTime: string;
        canModify: boolean;
        canDelete: boolean;
        canExecute: boolean;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "patrol.task.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      deviceCodes: string[];
      devices: {
        deviceCode: string;
        deviceName: string;
        productName: string;
        address: string;
        onlineState: string;
        checked: boolean;
        result: string;
        description: string;
        checkedTime: string;
        repairOrderCode: string;
      }[];
      checks: {
        deviceCode: string;
        deviceName: string;
        result: string;
        description: string;
      }[];
      id: number;
      code: string;
      name: string;
      organizationCode: string;
      organizationName: string;
      assigneeId: number | null;
      assigneeName: string;
      creatorName: string;
      planStartTime: string;
      planEndTime: string;
      planTime: string[];
      state: string;
      content: string;
      deviceCount: number;
      checkedCount: number;
      abnormalCount: number;
      progress: number;
      startTime: string;
      completeTime: string;
      createTime: string;
      canModify: boolean;
      canDelete: boolean;
      canExecute: boolean;
    };
  };
  "patrol.task.insert": {
    kind: "call";
    param: {
      task: {
        name: string;
        organizationCode: string;
        assigneeId?: number | null;
        /**
         * @minItems 2
         * @maxItems 2
         */
        planTime: string[];
        /**
         * @minItems 1
         * @maxItems 100
         */
        deviceCodes: string[];
        content?: string;
      };
    };
    data: {
      code: string;
    };
  };
  "patrol.task.modify": {
    kind: "call";
    param: {
      code: string;
      task: {
        name: string;
        organizationCode: string;
        assigneeId?: number | null;
        /**
         * @minItems 2
         * @maxItems 2
         */
        planTime: string[];
        /**
         * @minItems 1
         * @maxItems 100
         */
        deviceCodes: string[];
        content?: string;
      };
    };
    data: null;
  };
  "patrol.task.delete": {
    kind: "call";
    param: {
      code: string;
    };
    data: null;
  };
  "patrol.task.export": {
    kind: "blob";
    param: {
      keyword?: string;
      state?: ("pending" | "in_progress" | "completed" | "overdue") | string | null;
      organizationCode?: string;
      assigneeId?: number | null;
      /**
       * @minItems 2
       * @maxItems 2
       */
      planTime?: string[];
    };
    data: unknown;
  };
  "patrol.task.execute": {
    kind: "call";
    param: {
      code: string;
      /**
       * @minItems 1
       * @maxItems 100
       */
      checks: {
        deviceCode: string;
        deviceName?: string;
        result: "normal" | "abnormal";
        description?: string;
      }[];
    };
    data: {
      state: string;
      repairOrderCodes: string[];
    };
  };
  "patrol.record.page": {
    kind: "page";
    param: {
      taskCode?: string;
      result?: ("normal" | "abnormal") | string | null;
      keyword?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      checkTime?: string[];
    };
    data: {
      records: {
        id: number;
        taskCode: string;
        taskName: string;
        deviceCode: string;
        deviceName: string;
        result: string;
        description: string;
        patrollerName: string;
        checkedTime: string;
        repairOrderCode: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "patrol.board.statistics": {
    kind: "call";
    param: {
      metric?: "summary" | "daily" | "state" | "patroller" | "abnormal";
      startTime?: string;
      endTime?: string;
    };
    data:
      | {
          day: string;
          checked: number;
          abnormal: number;
        }[]
      | {
          state: "completed" | "in_progress" | "overdue" | "pending";
          name: string;
          count: number;
        }[]
      | {
          name: string;
          total: number;
          completed: number;
          abnormal: number;
        }[]
      | {
          id: number;
          taskCode: string;
          taskName: string;
          deviceCode: string;
          deviceName: string;
          description: string;
          patrollerName: string;
          checkedTime: string;
          repairOrderCode: string;
        }[]
      | {
          taskCount: number;
          completedCount: number;
          overdueCount: number;
          pendingCount: number;
          inProgressCount: number;
          completionRate: number;
          completionPercent: number;
          checkedCount: number;
          abnormalCount: number;
          abnormalRate: number;
        };
  };
  "construction.page": {
    kind: "page";
    param: {
      keyword?: string;
      state?:
        | ("created" | "assigned" | "accepted" | "in_progress" | "completed" | "audited" | "closed" | "rejected")
        | string
        | null;
      priority?: ("urgent" | "high" | "normal" | "low") | string | null;
      organizationCode?: string;
      assigneeId?: number | null;
      overdue?: ("1" | "0") | string | null;
      /**
       * @minItems 2
       * @maxItems 2
       */
      createTime?: string[];
      /**
       * @minItems 2
       * @maxItems 2
       */
      planTime?: string[];
      auditState?: ("pending" | "approved" | "rejected") | string | null;
    };
    data: {
      records: {
        id: number;
        code: string;
        type: "construction" | "exploration" | "maintenance" | "repair";
        title: string;
        description: string;
        state: string;
        source: string;
        sourceCode: string;
        priority: string;
        faultType: string;
        maintenanceType: string;
        tenantCode: string;
        organizationCode: string;
        organizationName: string;
        deviceCode: string;
        deviceName: string;
        productName: string;
        address: string;
        contactName: string;
        contactPhone: string;
        batchCode: string;
        creatorName: string;
        assigneeId: number | null;
        assigneeName: string;
        assigneePhone: string;
        planStartTime: string;
        deadline: string;
        planTime: string[] | null;
        overdue: boolean;
        assignTime: string;
        acceptTime: string;
        startTime: string;
        completeTime: string;
        auditTime: string;
        closeTime: string;
        result: string;
        faultCause: string;
        cost: number | null;
        auditState: string;
        auditOpinion: string;
        rejectReason: string;
        closeReason: string;
        formTemplateId: number | null;
        formTemplateVersion: number | null;
        formData: {
          [k: string]: unknown | undefined;
        } | null;
        createTime: string;
        updateTime: string;
        [k: string]:
          | boolean
          | number
          | string
          | "construction"
          | "exploration"
          | "maintenance"
          | "repair"
          | null
          | string[]
          | {
              [k: string]: unknown | undefined;
            }
          | undefined;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "construction.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      id: number;
      code: string;
      type: "construction" | "exploration" | "maintenance" | "repair";
      title: string;
      description: string;
      state: string;
      source: string;
      sourceCode: string;
      priority: string;
      faultType: string;
      maintenanceType: string;
      tenantCode: string;
      organizationCode: string;
      organizationName: string;
      deviceCode: string;
      deviceName: string;
      productName: string;
      address: string;
      contactName: string;
      contactPhone: string;
      batchCode: string;
      creatorName: string;
      assigneeId: number | null;
      assigneeName: string;
      assigneePhone: string;
      planStartTime: string;
      deadline: string;
      planTime: string[] | null;
      overdue: boolean;
      assignTime: string;
      acceptTime: string;
      startTime: string;
      completeTime: string;
      auditTime: string;
      closeTime: string;
      result: string;
      faultCause: string;
      cost: number | null;
      auditState: string;
      auditOpinion: string;
      rejectReason: string;
      closeReason: string;
      formTemplateId: number | null;
      formTemplateVersion: number | null;
      formData: {
        [k: string]: unknown | undefined;
      } | null;
      createTime: string;
      updateTime: string;
      formTemplateName: string;
      formTemplateLabel: string;
      filledForm: {
        key: string;
        label: string;
        type: "checkbox" | "date" | "number" | "photo" | "select" | "text" | "textarea";
        required: boolean;
        value: unknown;
        text: string;
        photos: unknown[];
      }[];
      history: {
        id: number;
        action: string;
        fromState: string;
        toState: string;
        operatorName: string;
        remark: string;
        time: string;
      }[];
      [k: string]:
        | boolean
        | number
        | string
        | "construction"
        | "exploration"
        | "maintenance"
        | "repair"
        | null
        | string[]
        | {
            [k: string]: unknown | undefined;
          }
        | {
            key: string;
            label: string;
            type: "checkbox" | "date" | "number" | "photo" | "select" | "text" | "textarea";
            required: boolean;
            value: unknown;
            text: string;
            photos: unknown[];
          }[]
        | {
            id: number;
            action: string;
            fromState: string;
            toState: string;
            operatorName: string;
            remark: string;
            time: string;
          }[]
        | undefined;
    };
  };
  "construction.insert": {
    kind: "call";
    param: {
      order: {
        title: string;
        organizationCode?: string | null;
        deviceCode?: string | null;
        address?: string;
        description?: string;
        result?: string;
        assigneeId?: number | null;
        formTemplateId?: number | null;
        formData?: {
          [k: string]: string | number | boolean | null | string[] | undefined;
        } | null;
        planTime?: string[] | null;
        finished?: boolean;
      };
    };
    data: {
      code: string;
    };
  };
  "construction.modify": {
    kind: "call";
    param: {
      code: string;
      order: {
        title: string;
        organizationCode?: string | null;
        deviceCode?: string | null;
        address?: string;
        description?: string;
        result?: string;
        assigneeId?: number | null;
        formTemplateId?: number | null;
        formData?: {
          [k: string]: string | number | boolean | null | string[] | undefined;
        } | null;
        planTime?: string[] | null;
        finished?: boolean;
      };
    };
    data: null;
  };
  "construction.delete": {
    kind: "call";
    param: {
      code: string;
    };
    data: null;
  };
  "construction.export": {
    kind: "blob";
    param: {
      keyword?: string;
      state?:
        | ("created" | "assigned" | "accepted" | "in_progress" | "completed" | "audited" | "closed" | "rejected")
        | string
        | null;
      priority?: ("urgent" | "high" | "normal" | "low") | string | null;
      organizationCode?: string;
      assigneeId?: number | null;
      overdue?: ("1" | "0") | string | null;
      /**
       * @minItems 2
       * @maxItems 2
       */
      createTime?: string[];
      /**
       * @minItems 2
       * @maxItems 2
       */
      planTime?: string[];
      auditState?: ("pending" | "approved" | "rejected") | string | null;
    };
    data: unknown;
  };
  "construction.audit": {
    kind: "call";
    param: {
      code: string;
      approved: boolean;
      opinion?: string;
    };
    data: null;
  };
  "exploration.page": {
    kind: "page";
    param: {
      keyword?: string;
      state?:
        | ("created" | "assigned" | "accepted" | "in_progress" | "completed" | "audited" | "closed" | "rejected")
        | string
        | null;
      priority?: ("urgent" | "high" | "normal" | "low") | string | null;
      organizationCode?: string;
      assigneeId?: number | null;
      overdue?: ("1" | "0") | string | null;
      /**
       * @minItems 2
       * @maxItems 2
       */
      createTime?: string[];
      /**
       * @minItems 2
       * @maxItems 2
       */
      planTime?: string[];
      auditState?: ("pending" | "approved" | "rejected") | string | null;
    };
    data: {
      records: {
        id: number;
        code: string;
        type: "construction" | "exploration" | "maintenance" | "repair";
        title: string;
        description: string;
        state: string;
        source: string;
        sourceCode: string;
        priority: string;
        faultType: string;
        maintenanceType: string;
        tenantCode: string;
        organizationCode: string;
        organizationName: string;
        deviceCode: string;
        deviceName: string;
        productName: string;
        address: string;
        contactName: string;
        contactPhone: string;
        batchCode: string;
        creatorName: string;
        assigneeId: number | null;
        assigneeName: string;
        assigneePhone: string;
        planStartTime: string;
        deadline: string;
        planTime: string[] | null;
        overdue: boolean;
        assignTime: string;
        acceptTime: string;
        startTime: string;
        completeTime: string;
        auditTime: string;
        closeTime: string;
        result: string;
        faultCause: string;
        cost: number | null;
        auditState: string;
        auditOpinion: string;
        rejectReason: string;
        closeReason: string;
        formTemplateId: number | null;
        formTemplateVersion: number | null;
        formData: {
          [k: string]: unknown | undefined;
        } | null;
        createTime: string;
        updateTime: string;
        [k: string]:
          | boolean
          | number
          | string
          | "construction"
          | "exploration"
          | "maintenance"
          | "repair"
          | null
          | string[]
          | {
              [k: string]: unknown | undefined;
            }
          | undefined;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "exploration.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      id: number;
      code: string;
      type: "construction" | "exploration" | "maintenance" | "repair";
      title: string;
      description: string;
      state: string;
      source: string;
      sourceCode: string;
      priority: string;
      faultType: string;
      maintenanceType: string;
      tenantCode: string;
      organizationCode: string;
      organizationName: string;
      deviceCode: string;
      deviceName: string;
      productName: string;
      address: string;
      contactName: string;
      contactPhone: string;
      batchCode: string;
      creatorName: string;
      assigneeId: number | null;
      assigneeName: string;
      assigneePhone: string;
      planStartTime: string;
      deadline: string;
      planTime: string[] | null;
      overdue: boolean;
      assignTime: string;
      acceptTime: string;
      startTime: string;
      completeTime: string;
      auditTime: string;
      closeTime: string;
      result: string;
      faultCause: string;
      cost: number | null;
      auditState: string;
      auditOpinion: string;
      rejectReason: string;
      closeReason: string;
      formTemplateId: number | null;
      formTemplateVersion: number | null;
      formData: {
        [k: string]: unknown | undefined;
      } | null;
      createTime: string;
      updateTime: string;
      formTemplateName: string;
      formTemplateLabel: string;
      filledForm: {
        key: string;
        label: string;
        type: "checkbox" | "date" | "number" | "photo" | "select" | "text" | "textarea";
        required: boolean;
        value: unknown;
        text: string;
        photos: unknown[];
      }[];
      history: {
        id: number;
        action: string;
        fromState: string;
        toState: string;
        operatorName: string;
        remark: string;
        time: string;
      }[];
      [k: string]:
        | boolean
        | number
        | string
        | "construction"
        | "exploration"
        | "maintenance"
        | "repair"
        | null
        | string[]
        | {
            [k: string]: unknown | undefined;
          }
        | {
            key: string;
            label: string;
            type: "checkbox" | "date" | "number" | "photo" | "select" | "text" | "textarea";
            required: boolean;
            value: unknown;
            text: string;
            photos: unknown[];
          }[]
        | {
            id: number;
            action: string;
            fromState: string;
            toState: string;
            operatorName: string;
            remark: string;
            time: string;
          }[]
        | undefined;
    };
  };
  "exploration.insert": {
    kind: "call";
    param: {
      order: {
        title: string;
        organizationCode?: string | null;
        deviceCode?: string | null;
        address?: string;
        description?: string;
        result?: string;
        assigneeId?: number | null;
        formTemplateId?: number | null;
        formData?: {
          [k: string]: string | number | boolean | null | string[] | undefined;
        } | null;
        planStartTime?: string | null;
        deadline?: string | null;
        finished?: boolean;
      };
    };
    data: {
      code: string;
    };
  };
  "exploration.modify": {
    kind: "call";
    param: {
      code: string;
      order: {
        title: string;
        organizationCode?: string | null;
        deviceCode?: string | null;
        address?: string;
        description?: string;
        result?: string;
        assigneeId?: number | null;
        formTemplateId?: number | null;
        formData?: {
          [k: string]: string | number | boolean | null | string[] | undefined;
        } | null;
        planStartTime?: string | null;
        deadline?: string | null;
        finished?: boolean;
      };
    };
    data: null;
  };
  "exploration.delete": {
    kind: "call";
    param: {
      code: string;
    };
    data: null;
  };
  "exploration.export": {
    kind: "blob";
    param: {
      keyword?: string;
      state?:
        | ("created" | "assigned" | "accepted" | "in_progress" | "completed" | "audited" | "closed" | "rejected")
        | string
        | null;
      priority?: ("urgent" | "high" | "normal" | "low") | string | null;
      organizationCode?: string;
      assigneeId?: number | null;
      overdue?: ("1" | "0") | string | null;
      /**
       * @minItems 2
       * @maxItems 2
       */
      createTime?: string[];
      /**
       * @minItems 2
       * @maxItems 2
       */
      planTime?: string[];
      auditState?: ("pending" | "approved" | "rejected") | string | null;
    };
    data: unknown;
  };
  "exploration.audit": {
    kind: "call";
    param: {
      code: string;
      approved: boolean;
      opinion?: string;
    };
    data: null;
  };
  "maintenance.page": {
    kind: "page";
    param: {
      keyword?: string;
      state?:
        | ("created" | "assigned" | "accepted" | "in_progress" | "completed" | "audited" | "closed" | "rejected")
        | string
        | null;
      priority?: ("urgent" | "high" | "normal" | "low") | string | null;
      organizationCode?: string;
      assigneeId?: number | null;
      overdue?: ("1" | "0") | string | null;
      /**
       * @minItems 2
       * @maxItems 2
       */
      createTime?: string[];
      /**
       * @minItems 2
       * @maxItems 2
       */
      planTime?: string[];
      maintenanceType?: ("routine" | "calibration" | "cleaning" | "battery" | "inspection") | string | null;
    };
    data: {
      records: {
        id: number;
        code: string;
        type: "construction" | "exploration" | "maintenance" | "repair";
        title: string;
        description: string;
        state: string;
        source: string;
        sourceCode: string;
        priority: string;
        faultType: string;
        maintenanceType: string;
        tenantCode: string;
        organizationCode: string;
        organizationName: string;
        deviceCode: string;
        deviceName: string;
        productName: string;
        address: string;
        contactName: string;
        contactPhone: string;
        batchCode: string;
        creatorName: string;
        assigneeId: number | null;
        assigneeName: string;
        assigneePhone: string;
        planStartTime: string;
        deadline: string;
        planTime: string[] | null;
        overdue: boolean;
        assignTime: string;
        acceptTime: string;
        startTime: string;
        completeTime: string;
        auditTime: string;
        closeTime: string;
        result: string;
        faultCause: string;
        cost: number | null;
        auditState: string;
        auditOpinion: string;
        rejectReason: string;
        closeReason: string;
        formTemplateId: number | null;
        formTemplateVersion: number | null;
        formData: {
          [k: string]: unknown | undefined;
        } | null;
        createTime: string;
        updateTime: string;
        [k: string]:
          | boolean
          | number
          | string
          | "construction"
          | "exploration"
          | "maintenance"
          | "repair"
          | null
          | string[]
          | {
              [k: string]: unknown | undefined;
            }
          | undefined;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "maintenance.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      id: number;
      code: string;
      type: "construction" | "exploration" | "maintenance" | "repair";
      title: string;
      description: string;
      state: string;
      source: string;
      sourceCode: string;
      priority: string;
      faultType: string;
      maintenanceType: string;
      tenantCode: string;
      organizationCode: string;
      organizationName: string;
      deviceCode: string;
      deviceName: string;
      productName: string;
      address: string;
      contactName: string;
      contactPhone: string;
      batchCode: string;
      creatorName: string;
      assigneeId: number | null;
      assigneeName: string;
      assigneePhone: string;
      planStartTime: string;
      deadline: string;
      planTime: string[] | null;
      overdue: boolean;
      assignTime: string;
      acceptTime: string;
      startTime: string;
      completeTime: string;
      auditTime: string;
      closeTime: string;
      result: string;
      faultCause: string;
      cost: number | null;
      auditState: string;
      auditOpinion: string;
      rejectReason: string;
      closeReason: string;
      formTemplateId: number | null;
      formTemplateVersion: number | null;
      formData: {
        [k: string]: unknown | undefined;
      } | null;
      createTime: string;
      updateTime: string;
      formTemplateName: string;
      formTemplateLabel: string;
      filledForm: {
        key: string;
        label: string;
        type: "checkbox" | "date" | "number" | "photo" | "select" | "text" | "textarea";
        required: boolean;
        value: unknown;
        text: string;
        photos: unknown[];
      }[];
      history: {
        id: number;
        action: string;
        fromState: string;
        toState: string;
        operatorName: string;
        remark: string;
        time: string;
      }[];
      [k: string]:
        | boolean
        | number
        | string
        | "construction"
        | "exploration"
        | "maintenance"
        | "repair"
        | null
        | string[]
        | {
            [k: string]: unknown | undefined;
          }
        | {
            key: string;
            label: string;
            type: "checkbox" | "date" | "number" | "photo" | "select" | "text" | "textarea";
            required: boolean;
            value: unknown;
            text: string;
            photos: unknown[];
          }[]
        | {
            id: number;
            action: string;
            fromState: string;
            toState: string;
            operatorName: string;
            remark: string;
            time: string;
          }[]
        | undefined;
    };
  };
  "maintenance.insert": {
    kind: "call";
    param: {
      order: {
        title: string;
        organizationCode?: string | null;
        deviceCode?: string | null;
        address?: string;
        description?: string;
        result?: string;
        assigneeId: number;
        formTemplateId?: number | null;
        formData?: {
          [k: string]: string | number | boolean | null | string[] | undefined;
        } | null;
        maintenanceType: "routine" | "calibration" | "cleaning" | "battery" | "inspection";
        planStartTime?: string | null;
        deadline?: string | null;
      };
    };
    data: {
      code: string;
    };
  };
  "maintenance.modify": {
    kind: "call";
    param: {
      code: string;
      order: {
        title: string;
        organizationCode?: string | null;
        deviceCode?: string | null;
        address?: string;
        description?: string;
        result?: string;
        assigneeId: number;
        formTemplateId?: number | null;
        formData?: {
          [k: string]: string | number | boolean | null | string[] | undefined;
        } | null;
        maintenanceType: "routine" | "calibration" | "cleaning" | "battery" | "inspection";
        planStartTime?: string | null;
        deadline?: string | null;
      };
    };
    data: null;
  };
  "maintenance.delete": {
    kind: "call";
    param: {
      code: string;
    };
    data: null;
  };
  "maintenance.complete": {
    kind: "call";
    param: {
      code: string;
      result: string;
      cost?: number | null;
      formData?: {
        [k: string]: string | number | boolean | null | string[] | undefined;
      } | null;
    };
    data: null;
  };
  "work.staff.list": {
    kind: "call";
    param: {
      kind?: "repair" | "maintenance" | "construction" | "exploration" | "patrol";
      keyword?: string;
    };
    data: {
      id: number;
      name: string;
      userName: string;
    }[];
  };
  "project.area.page": {
    kind: "page";
    param: {
      keyword?: string;
      projectCode?: string;
      areaType?: ("district" | "station" | "plant" | "building") | string;
      parentCode?: string;
    };
    data: {
      records: {
        id: number;
        code: string;
        name: string;
        parentCode: string;
        parentName: string;
        projectCode: string;
        projectName: string;
        fullName: string;
        level: number;
        areaType: string;
        managerName: string;
        managerPhone: string;
        address: string;
        longitude: number | null;
        latitude: number | null;
        acreage: number | null;
        remark: string;
        childCount: number;
        deviceCount: number;
        createdBy: string;
        createTime: string;
        updateTime: string;
        canDelete: boolean;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "project.area.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      id: number;
      code: string;
      name: string;
      parentCode: string;
      parentName: string;
      projectCode: string;
      projectName: string;
      fullName: string;
      level: number;
      areaType: string;
      managerName: string;
      managerPhone: string;
      address: string;
      longitude: number | null;
      latitude: number | null;
      acreage: number | null;
      remark: string;
      childCount: number;
      deviceCount: number;
      createdBy: string;
      createTime: string;
      updateTime: string;
      canDelete: boolean;
    };
  };
  "project.area.insert": {
    kind: "call";
    param: {
      area: {
        name: string;
        parentCode: string;
        areaType: "district" | "station" | "plant" | "building";
        managerName?: string;
        managerPhone?: string | null;
        address?: string;
        longitude?: number | null;
        latitude?: number | null;
        acreage?: number | null;
        remark?: string;
      };
    };
    data: {
      code: string;
    };
  };
  "project.area.modify": {
    kind: "call";
    param: {
      code: string;
      area: {
        name: string;
        parentCode: string;
        areaType: "district" | "station" | "plant" | "building";
        managerName?: string;
        managerPhone?: string | null;
        address?: string;
        longitude?: number | null;
        latitude?: number | null;
        acreage?: number | null;
        remark?: string;
      };
    };
    data: {
      code: string;
    };
  };
  "project.area.delete": {
    kind: "call";
    param: {
      code: string;
    };
    data: null;
  };
  "project.area.list": {
    kind: "call";
    param: {
      keyword?: string;
      projectCode?: string;
      areaType?: ("district" | "station" | "plant" | "building") | string;
      parentCode?: string;
    };
    data: {
      code: string;
      name: string;
      fullName: string;
      projectCode: string;
      projectName: string;
      areaType: string;
      level: number;
    }[];
  };
  "office.corporate.page": {
    kind: "page";
    param: {
      keyword?: string;
      type?: ("seal" | "expense" | "purchase" | "travel" | "vehicle") | string | null;
      state?: ("draft" | "submitted" | "approved" | "rejected") | string | null;
      /**
       * @minItems 2
       * @maxItems 2
       */
      createTime?: string[];
    };
    data: {
      records: {
        id: number;
        code: string;
        type: string;
        title: string;
        content: string;
        sealType: string;
        amount: number | null;
        destination: string;
        startTime: string;
        endTime: string;
        period: string[] | null;
        state: string;
        organizationCode: string;
        organizationName: string;
        applicantName: string;
        applicantPhone: string;
        submitTime: string;
        auditorName: string;
        auditTime: string;
        auditOpinion: string;
        createTime: string;
        updateTime: string;
        canModify: boolean;
        canDelete: boolean;
        canSubmit: boolean;
        canAudit: boolean;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "office.corporate.detail": {
    kind: "call";
    param: {
      code: string;
    };
    data: {
      history: {
        id: number;
        action: string;
        fromState: string;
        toState: string;
        operatorName: string;
        remark: string;
        time: string;
      }[];
      id: number;
      code: string;
      type: string;
      title: string;
      content: string;
      sealType: string;
      amount: number | null;
      destination: string;
      startTime: string;
      endTime: string;
      period: string[] | null;
      state: string;
      organizationCode: string;
      organizationName: string;
      applicantName: string;
      applicantPhone: string;
      submitTime: string;
      auditorName: string;
      auditTime: string;
      auditOpinion: string;
      createTime: string;
      updateTime: string;
      canModify: boolean;
      canDelete: boolean;
      canSubmit: boolean;
      canAudit: boolean;
    };
  };
  "office.corporate.insert": {
    kind: "call";
    param: {
      request: {
        type: "seal" | "expense" | "purchase" | "travel" | "vehicle";
        title: string;
        content?: string;
        sealType?: ("official" | "contract" | "finance" | "legal") | string | null;
        amount?: number | null;
        destination?: string;
        period?: string[] | null;
      };
    };
    data: {
      code: string;
    };
  };
  "office.corporate.modify": {
    kind: "call";
    param: {
      code: string;
      request: {
        type: "seal" | "expense" | "purchase" | "travel" | "vehicle";
        title: string;
        content?: string;
        sealType?: ("official" | "contract" | "finance" | "legal") | string | null;
        amount?: number | null;
        destination?: string;
        period?: string[] | null;
      };
    };
    data: {
      code: string;
    };
  };
  "office.corporate.delete": {
    kind: "call";
    param: {
      code: string;
    };
    data: null;
  };
  "office.corporate.submit": {
    kind: "call";
    param: {
      code: string;
    };
    data: null;
  };
  "office.audit.page": {
    kind: "page";
    param: {
      keyword?: string;
      type?: ("seal" | "expense" | "purchase" | "travel" | "vehicle") | string | null;
      state?: ("draft" | "submitted" | "approved" | "rejected") | string | null;
      /**
       * @minItems 2
       * @maxItems 2
       */
      createTime?: string[];
    };
    data: {
      records: {
        id: number;
        code: string;
        type: string;
        title: string;
        content: string;
        sealType: string;
        amount: number | null;
        destination: string;
        startTime: string;
        endTime: string;
        period: string[] | null;
        state: string;
        organizationCode: string;
        organizationName: string;
        applicantName: string;
        applicantPhone: string;
        submitTime: string;
        auditorName: string;
        auditTime: string;
        auditOpinion: string;
        createTime: string;
        updateTime: string;
        canModify: boolean;
        canDelete: boolean;
        canSubmit: boolean;
        canAudit: boolean;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "office.audit.approve": {
    kind: "call";
    param: {
      code: string;
      opinion: string;
    };
    data: null;
  };
  "office.audit.reject": {
    kind: "call";
    param: {
      code: string;
      reason: string;
    };
    data: null;
  };
  "brand.backlog.page": {
    kind: "page";
    param: {
      keyword?: string;
      kind?: ("repair" | "maintenance" | "construction" | "exploration" | "patrol") | string | null;
      overdue?: ("1" | "0") | string | null;
      organizationCode?: string;
    };
    data: {
      records: {
        key: string;
        kind: "construction" | "exploration" | "maintenance" | "patrol" | "repair";
        code: string;
        title: string;
        state: string;
        stateName: string;
        step: string;
        priority: string;
        organizationName: string;
        assigneeName: string;
        deviceCode: string;
        deviceName: string;
        dueTime: string;
        overdue: boolean;
        createTime: string;
        detailUrl: string;
        actions: ("accept" | "approve" | "assign" | "complete" | "reject" | "start")[];
        assignKind: string;
        canAccept: boolean;
        canStart: boolean;
        canComplete: boolean;
        canAudit: boolean;
        canPatrol: boolean;
        fillKind: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "brand.backlog.handle": {
    kind: "call";
    param: {
      kind: "repair" | "maintenance" | "construction" | "exploration" | "patrol";
      code: string;
      action: "assign" | "accept" | "start" | "complete" | "approve" | "reject";
      assigneeId?: number | null;
      remark?: string;
    };
    data: {
      kind: "construction" | "exploration" | "maintenance" | "patrol" | "repair";
      code: string;
      state: string;
    };
  };
  "brand.patrol.page": {
    kind: "page";
    param: {
      keyword?: string;
      state?: ("pending" | "in_progress" | "completed" | "overdue") | string | null;
      organizationCode?: string;
      assigneeId?: number | null;
      /**
       * @minItems 2
       * @maxItems 2
       */
      planTime?: string[];
    };
    data: {
      records: {
        id: number;
        code: string;
        name: string;
        organizationCode: string;
        organizationName: string;
        assigneeId: number | null;
        assigneeName: string;
        creatorName: string;
        planStartTime: string;
        planEndTime: string;
        planTime: string[];
        state: string;
        content: string;
        deviceCount: number;
        checkedCount: number;
        abnormalCount: number;
        progress: number;
        startTime: string;
        completeTime: string;
        createTime: string;
        canModify: boolean;
        canDelete: boolean;
        canExecute: boolean;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "brand.statistics.overview": {
    kind: "call";
    param: {
      metric?: "summary" | "workType" | "daily" | "deviceState" | "assignee";
      startTime?: string;
      endTime?: string;
    };
    data:
      | {
          day: string;
          created: number;
          completed: number;
        }[]
      | {
          state: "inactive" | "offline" | "online";
          name: string;
          count: number;
        }[]
      | {
          name: string;
          total: number;
          completed: number;
        }[]
      | {
          deviceCount: number;
          onlineCount: number;
          onlineRate: number;
          onlinePercent: number;
          faultyCount: number;
          openWorkCount: number;
          overdueWorkCount: number;
          createdCount: number;
          completedCount: number;
          patrolTaskCount: number;
          patrolCompletionPercent: number;
        }
      | {
          created: number;
          completed: number;
          open: number;
          type: string;
          name: string;
        }[];
  };
  "brand.user.page": {
    kind: "page";
    param: {
      keyword?: string;
      roleCode?:
        | ("ROLE_TENANT_ORDINARY" | "ROLE_TENANT_REPAIR" | "ROLE_TENANT_PATROL" | "ROLE_REPAIR_IMPLEMENT")
        | string
        | null;
      status?: ("0" | "1") | string | null;
    };
    data: {
      records: {
        id: number;
        loginName: string;
        userName: string;
        phoneNumber: string;
        mail: string;
        roleCode: string;
        organizationCode: string;
        organizationName: string;
        status: string;
        openWorkCount: number;
        createTime: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "brand.user.insert": {
    kind: "call";
    param: {
      user: {
        loginName: string;
        userName: string;
        phoneNumber?: string | null;
        mail?: string | null;
        organizationCode: string;
        roleCode: "ROLE_TENANT_ORDINARY" | "ROLE_TENANT_REPAIR" | "ROLE_TENANT_PATROL" | "ROLE_REPAIR_IMPLEMENT";
        status?: "0" | "1";
      };
    };
    data: {
      id: number;
    };
  };
  "brand.user.modify": {
    kind: "call";
    param: {
      id: number;
      user: {
        loginName: string;
        userName: string;
        phoneNumber?: string | null;
        mail?: string | null;
        organizationCode: string;
        roleCode: "ROLE_TENANT_ORDINARY" | "ROLE_TENANT_REPAIR" | "ROLE_TENANT_PATROL" | "ROLE_REPAIR_IMPLEMENT";
        status?: "0" | "1";
      };
    };
    data: null;
  };
  "brand.user.delete": {
    kind: "call";
    param: {
      id: number;
    };
    data: null;
  };
  "brand.device.page": {
    kind: "page";
    param: {
      keyword?: string;
      productCode?: string;
      onlineState?: "online" | "offline" | "inactive";
      healthState?: "healthy" | "subhealthy" | "faulty";
      organizationCode?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
    };
    data: {
      records: {
        id: number;
        code: string;
        name: string;
        productCode: string;
        productName: string;
        model: string;
        nodeType: string;
        organizationCode: string;
        organizationName: string;
        imei: string;
        firmwareVersion: string;
        onlineState: string;
        healthState: string;
        healthScore: number;
        batteryPowered: boolean;
        batteryLevel: number | null;
        batteryRatio: number | null;
        batteryState: "exhausted" | "low" | "normal" | null;
        signalStrength: number | null;
        temperature: number | null;
        longitude: number | null;
        latitude: number | null;
        address: string;
        gatewayCode: string;
        iccid: string;
        cardBinding: string;
        cardOperator: string;
        sleeping: boolean;
        sleepSince: string | null;
        lastSeenTime: string | null;
        activatedTime: string | null;
        createTime: string;
        remark: string;
        followed: boolean;
        followTime: string | null;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "brand.device.export": {
    kind: "blob";
    param: {
      keyword?: string;
      productCode?: string;
      onlineState?: "online" | "offline" | "inactive";
      healthState?: "healthy" | "subhealthy" | "faulty";
      organizationCode?: string;
      /**
       * @minItems 2
       * @maxItems 2
       */
      timeRange?: string[];
    };
    data: unknown;
  };
  "tenant.config.page": {
    kind: "page";
    param: {
      keyword?: string;
    };
    data: {
      records: {
        customizedKeys: string[];
        customizedNames: string[];
        customizedCount: number;
        updatedBy: string;
        updateTime: string;
        alarmNotifyChannels: string[];
        workOrderTimeoutHours: number;
        patrolCycleDays: number;
        screenTitle: string;
        dataRetentionDays: number;
        lowBatteryPercent: number;
        tenantCode: string;
        tenantName: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "tenant.config.get": {
    kind: "call";
    param: {
      tenantCode?: string;
    };
    data: {
      defaults: {
        alarmNotifyChannels: string[];
        workOrderTimeoutHours: number;
        patrolCycleDays: number;
        screenTitle: string;
        dataRetentionDays: number;
        lowBatteryPercent: number;
      };
      customizedKeys: string[];
      customizedNames: string[];
      customizedCount: number;
      updatedBy: string;
      updateTime: string;
      alarmNotifyChannels: string[];
      workOrderTimeoutHours: number;
      patrolCycleDays: number;
      screenTitle: string;
      dataRetentionDays: number;
      lowBatteryPercent: number;
      tenantCode: string;
      tenantName: string;
    };
  };
  "tenant.config.save": {
    kind: "call";
    param: {
      tenantCode?: string;
      config: {
        /**
         * @minItems 1
         * @maxItems 6
         */
        alarmNotifyChannels?: ("dingtalk" | "feishu" | "mail" | "sms" | "voice" | "wechat")[];
        workOrderTimeoutHours?: number;
        patrolCycleDays?: number;
        screenTitle?: string;
        dataRetentionDays?: number;
        lowBatteryPercent?: number;
      };
    };
    data: {
      alarmNotifyChannels: string[];
      workOrderTimeoutHours: number;
      patrolCycleDays: number;
      screenTitle: string;
      dataRetentionDays: number;
      lowBatteryPercent: number;
    };
  };
  "tenant.config.reset": {
    kind: "call";
    param: {
      tenantCode?: string;
      /**
       * @minItems 1
       * @maxItems 6
       */
      keys?: (
        | "alarmNotifyChannels"
        | "workOrderTimeoutHours"
        | "patrolCycleDays"
        | "screenTitle"
        | "dataRetentionDays"
        | "lowBatteryPercent"
      )[];
    };
    data: {
      alarmNotifyChannels: string[];
      workOrderTimeoutHours: number;
      patrolCycleDays: number;
      screenTitle: string;
      dataRetentionDays: number;
      lowBatteryPercent: number;
    };
  };
  "app.version.page": {
    kind: "page";
    param: {
      keyword?: string | null;
      platform?: ("android" | "ios") | string | null;
      updateType?: ("forced" | "hot") | string | null;
      published?: boolean | ("" | "true" | "false" | "1" | "0") | null;
    };
    data: {
      records: {
        id: number;
        platform: string;
        updateType: string;
        version: string;
        buildNumber: number;
        downloadUrl: string;
        packageSize: number | null;
        releaseNotes: string;
        minSupportedVersion: string;
        published: boolean;
        publishedAt: string;
        publishedBy: string;
        createdBy: string;
        createTime: string;
        updateTime: string;
        packageSizeText: string;
        publishState: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "app.version.detail": {
    kind: "call";
    param: {
      id: number;
    };
    data: {
      id: number;
      platform: string;
      updateType: string;
      version: string;
      buildNumber: number;
      downloadUrl: string;
      packageSize: number | null;
      releaseNotes: string;
      minSupportedVersion: string;
      published: boolean;
      publishedAt: string;
      publishedBy: string;
      createdBy: string;
      createTime: string;
      updateTime: string;
      packageSizeText: string;
      publishState: string;
    };
  };
  "app.version.insert": {
    kind: "call";
    param: {
      version: {
        platform: "android" | "ios";
        updateType: "forced" | "hot";
        version: string;
        buildNumber: number;
        downloadUrl: string;
        packageSize?: number | null;
        releaseNotes: string;
        minSupportedVersion?: string | null;
      };
    };
    data: {
      id: number;
    };
  };
  "app.version.modify": {
    kind: "call";
    param: {
      id: number;
      version: {
        platform: "android" | "ios";
        updateType: "forced" | "hot";
        version: string;
        buildNumber: number;
        downloadUrl: string;
        packageSize?: number | null;
        releaseNotes: string;
        minSupportedVersion?: string | null;
      };
    };
    data: null;
  };
  "app.version.delete": {
    kind: "call";
    param: {
      id: number;
    };
    data: null;
  };
  "app.version.publish": {
    kind: "call";
    param: {
      id: number;
    };
    data: null;
  };
  "dict.page": {
    kind: "page";
    param: {
      keyword?: string;
    };
    data: {
      records: {
        dictType: string;
        dictName: string;
        itemCount: number;
        builtIn: boolean;
        sort: number;
        createTime: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "dict.detail": {
    kind: "call";
    param: {
      dictType: string;
    };
    data: {
      dictType: string;
      dictName: string;
      itemCount: number;
      builtIn: boolean;
      sort: number;
      createTime: string;
    };
  };
  "dict.insert": {
    kind: "call";
    param: {
      dict: {
        dictType: string;
        dictName: string;
        sort?: number | null;
      };
    };
    data: {
      dictType: string;
    };
  };
  "dict.modify": {
    kind: "call";
    param: {
      dictType: string;
      dict: {
        dictType: string;
        dictName: string;
        sort?: number | null;
      };
    };
    data: null;
  };
  "dict.delete": {
    kind: "call";
    param: {
      dictType: string;
    };
    data: null;
  };
  "dict.item.page": {
    kind: "page";
    param: {
      dictType: string;
      keyword?: string;
    };
    data: {
      records: {
        dictType: string;
        dictValue: string;
        dictLabel: string;
        builtIn: boolean;
        sort: number;
        createTime: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "dict.item.detail": {
    kind: "call";
    param: {
      dictType: string;
      dictValue: string;
    };
    data: {
      dictType: string;
      dictValue: string;
      dictLabel: string;
      builtIn: boolean;
      sort: number;
      createTime: string;
    };
  };
  "dict.item.insert": {
    kind: "call";
    param: {
      dictType: string;
      item: {
        dictValue: string;
        dictLabel: string;
        sort?: number | null;
      };
    };
    data: {
      dictType: string;
      dictValue: string;
    };
  };
  "dict.item.modify": {
    kind: "call";
    param: {
      dictType: string;
      dictValue: string;
      item: {
        dictValue: string;
        dictLabel: string;
        sort?: number | null;
      };
    };
    data: null;
  };
  "dict.item.delete": {
    kind: "call";
    param: {
      dictType: string;
      dictValue: string;
    };
    data: null;
  };
  "template.page": {
    kind: "page";
    param: {
      keyword?: string | null;
      type?: ("message" | "work_order") | string | null;
      enabled?: boolean | ("" | "true" | "false" | "1" | "0") | null;
    };
    data: {
      records: {
        id: number;
        type: string;
        name: string;
        content: string;
        enabled: boolean;
        remark: string;
        tenantCode: string;
        createdBy: string;
        createTime: string;
        updateTime: string;
        variables: string[];
        ownerName: string;
        canModify: boolean;
        canDelete: boolean;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "template.detail": {
    kind: "call";
    param: {
      id: number;
    };
    data: {
      id: number;
      type: string;
      name: string;
      content: string;
      enabled: boolean;
      remark: string;
      tenantCode: string;
      createdBy: string;
      createTime: string;
      updateTime: string;
      variables: string[];
      ownerName: string;
      canModify: boolean;
      canDelete: boolean;
    };
  };
  "template.insert": {
    kind: "call";
    param: {
      template: {
        type: "message" | "work_order";
        name: string;
        content: string;
        enabled?: boolean | null;
        remark?: string | null;
      };
    };
    data: {
      id: number;
    };
  };
  "template.modify": {
    kind: "call";
    param: {
      id: number;
      template: {
        type: "message" | "work_order";
        name: string;
        content: string;
        enabled?: boolean | null;
        remark?: string | null;
      };
    };
    data: {
      id: number;
    };
  };
  "template.delete": {
    kind: "call";
    param: {
      id: number;
    };
    data: null;
  };
  "template.list": {
    kind: "call";
    param: {
      keyword?: string;
      type?: ("message" | "work_order") | string | null;
    };
    data: {
      id: number;
      type: string;
      name: string;
      content: string;
      variables: string[];
      ownerName: string;
    }[];
  };
  "material.page": {
    kind: "page";
    param: {
      keyword?: string | null;
      type?: ("device" | "accessory" | "consumable" | "tool") | string | null;
      lowStock?: ("1" | "0") | string | null;
    };
    data: {
      records: {
        id: number;
        code: string;
        name: string;
        type: string;
        specification: string;
        unit: string;
        stock: number;
        warningLevel: number;
        unitPrice: number | null;
        supplier: string;
        location: string;
        remark: string;
        tenantCode: string;
        tenantName: string;
        createdBy: string;
        createTime: string;
        updateTime: string;
        lowStock: boolean;
        stockValue: number | null;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "material.detail": {
    kind: "call";
    param: {
      id: number;
    };
    data: {
      id: number;
      code: string;
      name: string;
      type: string;
      specification: string;
      unit: string;
      stock: number;
      warningLevel: number;
      unitPrice: number | null;
      supplier: string;
      location: string;
      remark: string;
      tenantCode: string;
      tenantName: string;
      createdBy: string;
      createTime: string;
      updateTime: string;
      lowStock: boolean;
      stockValue: number | null;
    };
  };
  "material.insert": {
    kind: "call";
    param: {
      material: {
        code: string;
        name: string;
        type: "device" | "accessory" | "consumable" | "tool";
        specification?: string | null;
        unit: string;
        stock: number;
        warningLevel: number;
        unitPrice?: number | null;
        supplier?: string | null;
        location?: string | null;
        remark?: string | null;
      };
    };
    data: {
      id: number;
    };
  };
  "material.modify": {
    kind: "call";
    param: {
      id: number;
      material: {
        code: string;
        name: string;
        type: "device" | "accessory" | "consumable" | "tool";
        specification?: string | null;
        unit: string;
        stock: number;
        warningLevel: number;
        unitPrice?: number | null;
        supplier?: string | null;
        location?: string | null;
        remark?: string | null;
      };
    };
    data: {
      id: number;
    };
  };
  "material.delete": {
    kind: "call";
    param: {
      id: number;
    };
    data: null;
  };
  "material.export": {
    kind: "blob";
    param: {
      keyword?: string | null;
      type?: ("device" | "accessory" | "consumable" | "tool") | string | null;
      lowStock?: ("1" | "0") | string | null;
    };
    data: unknown;
  };
  "repair.sparePart.page": {
    kind: "page";
    param: {
      keyword?: string | null;
      category?: ("mechanical" | "electrical" | "consumable") | string | null;
    };
    data: {
      records: {
        id: number;
        name: string;
        category: string;
        stock: number;
        warnAt: number;
        tenantCode: string;
        tenantName: string;
        createdBy: string;
        createTime: string;
        updateTime: string;
      }[];
      total: number;
      pageNumber: number;
      pageSize: number;
      totalAtLeast?: number;
    };
  };
  "repair.sparePart.detail": {
    kind: "call";
    param: {
      id: number;
    };
    data: {
      id: number;
      name: string;
      category: string;
      stock: number;
      warnAt: number;
      tenantCode: string;
      tenantName: string;
      createdBy: string;
      createTime: string;
      updateTime: string;
    };
  };
  "repair.sparePart.insert": {
    kind: "call";
    param: {
      sparePart: {
        name: string;
        category: "mechanical" | "electrical" | "consumable";
        stock: number;
        warnAt: number;
      };
    };
    data: {
      id: number;
    };
  };
  "repair.sparePart.modify": {
    kind: "call";
    param: {
      id: number;
      sparePart: {
        name: string;
        category: "mechanical" | "electrical" | "consumable";
        stock: number;
        warnAt: number;
      };
    };
    data: {
      id: number;
    };
  };
  "repair.sparePart.delete": {
    kind: "call";
    param: {
      id: number;
    };
    data: null;
  };
  "repair.sparePart.export": {
    kind: "blob";
    param: {
      keyword?: string | null;
      category?: ("mechanical" | "electrical" | "consumable") | string | null;
    };
    data: unknown;
  };
}
export interface MenuResource {
  resourceCode: string;
  parentCode: string | null;
  resourceName: string;
  resourcePath: string;
  resourceUrl: string;
  resourceIcon: string;
  fileUrl: string;
  menuClassificationCode: string;
  isShown: boolean;
  isCached: boolean;
  buttonList: {
    resourceCode: string;
    resourceName: string;
    resourceUrl: string;
  }[];
  children: MenuResource[];
}
export interface OrganizationNode {
  id: number;
  organizationCode: string;
  organizationName: string;
  organizationType: number;
  parentCode: string | null;
  label: string;
  children: OrganizationNode[];
}
export interface ResourceRecord {
  resourceCode: string;
  parentCode: string | null;
  parentName: string;
  resourceName: string;
  resourceType: "1" | "2";
  resourceUrl: string;
  fileUrl: string;
  resourceIcon: string;
  menuClassificationCode: string;
  isShown: boolean;
  isCached: boolean;
  clientType: number;
  sort: number;
  roleCount: number;
  children?: ResourceRecord[];
}
export interface ResourceNode {
  resourceCode: string;
  resourceName: string;
  resourceType: "1" | "2";
  parentCode: string | null;
  resourceUrl: string;
  children: ResourceNode[];
}
export interface Node {
  categoryCode: string;
  categoryName: string;
  parentCode: string;
  ownerType: "platform" | "tenant";
  productCount: number;
  children: Node[];
}
